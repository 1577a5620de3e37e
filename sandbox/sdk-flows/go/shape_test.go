package main

import (
	"strings"
	"testing"

	protocol "github.com/stellar/go-stellar-sdk/protocols/rpc"
)

func recorded(body string) *recorder { return &recorder{last: []byte(body)} }

func TestCheckShapeAcceptsStellarRPCsAnswer(t *testing.T) {
	rec := recorded(`{"jsonrpc":"2.0","id":1,"result":{"status":"healthy","latestLedger":9,"latestLedgerCloseTime":"1","oldestLedger":1,"oldestLedgerCloseTime":"0","ledgerRetentionWindow":17280}}`)
	if err := checkShape[protocol.GetHealthResponse](rec, "getHealth"); err != nil {
		t.Fatal(err)
	}
}

func TestCheckShapeRefusesAnUnknownField(t *testing.T) {
	rec := recorded(`{"jsonrpc":"2.0","id":1,"result":{"status":"healthy","latestLedger":9,"latestLedgerCloseTime":"1","oldestLedger":1,"oldestLedgerCloseTime":"0","ledgerRetentionWindow":17280,"extra":1}}`)
	err := checkShape[protocol.GetHealthResponse](rec, "getHealth")
	if err == nil || !strings.Contains(err.Error(), `unknown field "extra"`) {
		t.Fatalf("expected an unknown-field error, got %v", err)
	}
}

func TestCheckShapeNamesAMissingField(t *testing.T) {
	rec := recorded(`[{"jsonrpc":"2.0","id":1,"result":{"status":"healthy","latestLedger":9,"latestLedgerCloseTime":"1","oldestLedger":1,"oldestLedgerCloseTime":"0"}}]`)
	err := checkShape[protocol.GetHealthResponse](rec, "getHealth")
	if err == nil || !strings.Contains(err.Error(), ".ledgerRetentionWindow") {
		t.Fatalf("expected ledgerRetentionWindow to be missing, got %v", err)
	}
}

func TestCheckShapeRefusesANumberWhereStellarRPCSendsAString(t *testing.T) {
	rec := recorded(`{"jsonrpc":"2.0","id":1,"result":{"status":"healthy","latestLedger":9,"latestLedgerCloseTime":1,"oldestLedger":1,"oldestLedgerCloseTime":"0","ledgerRetentionWindow":1}}`)
	if err := checkShape[protocol.GetHealthResponse](rec, "getHealth"); err == nil {
		t.Fatal("expected latestLedgerCloseTime as a number to be refused")
	}
}
