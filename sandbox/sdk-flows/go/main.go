// The Go SDK flow: every Stellar RPC method the project's node serves, called through the
// official Go SDK (github.com/stellar/go-stellar-sdk: clients/rpcclient, txnbuild, xdr) against
// a node given as the first argument or SANDBOX_RPC_URL. Each answer is decoded by the SDK's
// own types and then checked field by field against them (shape.go); the flow exits 1 with a
// message naming the method on the first difference or failure.
//
//	go run . http://127.0.0.1:8000/rpc
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"time"

	"github.com/stellar/go-stellar-sdk/clients/rpcclient"
	"github.com/stellar/go-stellar-sdk/keypair"
	protocol "github.com/stellar/go-stellar-sdk/protocols/rpc"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

type flow struct {
	ctx        context.Context
	rpc        *rpcclient.Client
	rec        *recorder
	passphrase string
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "go sdk flow: "+format+"\n", args...)
	os.Exit(1)
}

func step(format string, args ...any) { fmt.Printf("ok  "+format+"\n", args...) }

// answer holds what an SDK call returned, until check looks at it.
type answer[T any] struct {
	v   T
	err error
}

func got[T any](v T, err error) answer[T] { return answer[T]{v, err} }

// check fails the flow when the call failed, and otherwise checks the raw answer against T.
func (a answer[T]) check(f *flow, method string) T {
	if a.err != nil {
		fail("%s: %v", method, a.err)
	}
	if err := checkShape[T](f.rec, method); err != nil {
		fail("%v", err)
	}
	return a.v
}

func main() {
	rpcURL := os.Getenv("SANDBOX_RPC_URL")
	if len(os.Args) > 1 {
		rpcURL = os.Args[1]
	}
	if rpcURL == "" {
		fail("usage: go run . <rpc-url> (or set SANDBOX_RPC_URL)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rec := &recorder{base: http.DefaultTransport}
	client := rpcclient.NewClient(rpcURL, &http.Client{Transport: rec, Timeout: 30 * time.Second})
	defer client.Close()
	f := &flow{ctx: ctx, rpc: client, rec: rec}
	f.run()
	fmt.Println("go sdk flow: all methods agree with github.com/stellar/go-stellar-sdk")
}

func (f *flow) run() {
	health := got(f.rpc.GetHealth(f.ctx)).check(f, "getHealth")
	if health.Status != "healthy" {
		fail("getHealth: status %q, expected \"healthy\"", health.Status)
	}
	step("getHealth: %s, ledgers %d..%d", health.Status, health.OldestLedger, health.LatestLedger)

	network := got(f.rpc.GetNetwork(f.ctx)).check(f, "getNetwork")
	f.passphrase = network.Passphrase
	if network.FriendbotURL == "" {
		fail("getNetwork: no friendbotUrl (the flow funds its account through it)")
	}
	step("getNetwork: %q, protocol %d", network.Passphrase, network.ProtocolVersion)

	latest := got(f.rpc.GetLatestLedger(f.ctx)).check(f, "getLatestLedger")
	// stellar-rpc's methods/get_latest_ledger.go sends the LedgerHeader (getLedgers sends the
	// LedgerHeaderHistoryEntry).
	var header xdr.LedgerHeader
	if err := xdr.SafeUnmarshalBase64(latest.LedgerHeader, &header); err != nil {
		fail("getLatestLedger: headerXdr is not a LedgerHeader: %v", err)
	}
	if uint32(header.LedgerSeq) != latest.Sequence {
		fail("getLatestLedger: headerXdr is ledger %d, sequence says %d", header.LedgerSeq, latest.Sequence)
	}
	var latestMeta xdr.LedgerCloseMeta
	if err := xdr.SafeUnmarshalBase64(latest.LedgerMetadata, &latestMeta); err != nil {
		fail("getLatestLedger: metadataXdr is not a LedgerCloseMeta: %v", err)
	}
	step("getLatestLedger: %d (%s)", latest.Sequence, latest.Hash)
	start := latest.Sequence

	source := keypair.MustRandom()
	dest := keypair.MustRandom()
	f.friendbot(network.FriendbotURL, source.Address())
	f.friendbot(network.FriendbotURL, dest.Address())

	paymentHash := f.payment(source, dest.Address())
	f.accountEntry(source.Address())
	sac, transferHash, transferLedger := f.sacTransfer(source, dest.Address())
	f.transferEvent(sac, transferHash, start)
	f.ranges(start, transferLedger, paymentHash, transferHash)

	fees := got(f.rpc.GetFeeStats(f.ctx)).check(f, "getFeeStats")
	if fees.LatestLedger < transferLedger {
		fail("getFeeStats: latestLedger %d is before the transfer's ledger %d", fees.LatestLedger, transferLedger)
	}
	step("getFeeStats: inclusion fee p50 %d, Soroban p50 %d", fees.InclusionFee.P50, fees.SorobanInclusionFee.P50)

	version := got(f.rpc.GetVersionInfo(f.ctx)).check(f, "getVersionInfo")
	if version.Version == "" || version.ProtocolVersion == 0 {
		fail("getVersionInfo: empty version or protocolVersion: %+v", version)
	}
	step("getVersionInfo: %s (protocol %d)", version.Version, version.ProtocolVersion)
}

// friendbot funds addr through the node's friendbot (GET ?addr=, as stellar/friendbot serves).
func (f *flow) friendbot(friendbotURL, addr string) {
	resp, err := http.Get(friendbotURL + "?addr=" + url.QueryEscape(addr))
	if err != nil {
		fail("friendbot: %v", err)
	}
	defer resp.Body.Close()
	var body struct {
		Hash string `json:"hash"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || resp.StatusCode != 200 || body.Hash == "" {
		fail("friendbot: status %d, no transaction hash in the answer (%v)", resp.StatusCode, err)
	}
	f.poll("friendbot's transaction", body.Hash)
	step("friendbot funded %s (%s)", addr, body.Hash)
}

// submit signs tx, sends it and polls it to SUCCESS; it returns the final getTransaction answer.
func (f *flow) submit(what string, tx *txnbuild.Transaction, signer *keypair.Full) protocol.GetTransactionResponse {
	tx, err := tx.Sign(f.passphrase, signer)
	if err != nil {
		fail("%s: signing: %v", what, err)
	}
	envelope, err := tx.Base64()
	if err != nil {
		fail("%s: encoding: %v", what, err)
	}
	hash, err := tx.HashHex(f.passphrase)
	if err != nil {
		fail("%s: hashing: %v", what, err)
	}
	sent := got(f.rpc.SendTransaction(f.ctx, protocol.SendTransactionRequest{Transaction: envelope})).check(f, "sendTransaction")
	if sent.Status != "PENDING" || sent.Hash != hash {
		fail("sendTransaction (%s): status %q hash %s (expected PENDING, %s) %s", what, sent.Status, sent.Hash, hash, sent.ErrorResultXDR)
	}
	return f.poll(what, hash)
}

func (f *flow) poll(what, hash string) protocol.GetTransactionResponse {
	opts := rpcclient.NewPollTransactionOptions().WithInitialInterval(100 * time.Millisecond).WithMaxInterval(time.Second)
	res := got(f.rpc.PollTransactionWithOptions(f.ctx, hash, opts)).check(f, "getTransaction")
	if res.Status != protocol.TransactionStatusSuccess {
		fail("getTransaction (%s): status %s, result %s", what, res.Status, res.ResultXDR)
	}
	if res.TransactionHash != hash {
		fail("getTransaction (%s): txHash %s, asked for %s", what, res.TransactionHash, hash)
	}
	var meta xdr.TransactionMeta
	if err := xdr.SafeUnmarshalBase64(res.ResultMetaXDR, &meta); err != nil {
		fail("getTransaction (%s): resultMetaXdr is not a TransactionMeta: %v", what, err)
	}
	var result xdr.TransactionResult
	if err := xdr.SafeUnmarshalBase64(res.ResultXDR, &result); err != nil || !result.Successful() {
		fail("getTransaction (%s): resultXdr is not a successful TransactionResult (%v)", what, err)
	}
	return res
}

func (f *flow) load(addr string) txnbuild.Account {
	account, err := f.rpc.LoadAccount(f.ctx, addr)
	if err != nil {
		fail("getLedgerEntries (account %s): %v", addr, err)
	}
	if err := checkShape[protocol.GetLedgerEntriesResponse](f.rec, "getLedgerEntries"); err != nil {
		fail("%v", err)
	}
	return account
}

func (f *flow) payment(source *keypair.Full, dest string) string {
	tx, err := txnbuild.NewTransaction(txnbuild.TransactionParams{
		SourceAccount:        f.load(source.Address()),
		IncrementSequenceNum: true,
		Operations:           []txnbuild.Operation{&txnbuild.Payment{Destination: dest, Amount: "12.5", Asset: txnbuild.NativeAsset{}}},
		BaseFee:              txnbuild.MinBaseFee,
		Preconditions:        txnbuild.Preconditions{TimeBounds: txnbuild.NewTimeout(60)},
	})
	if err != nil {
		fail("payment: building: %v", err)
	}
	res := f.submit("payment", tx, source)
	step("payment: sendTransaction PENDING, getTransaction SUCCESS in ledger %d", res.Ledger)
	return res.TransactionHash
}

func (f *flow) accountEntry(addr string) {
	accountID := xdr.MustAddress(addr)
	key, err := accountID.LedgerKey()
	if err != nil {
		fail("account key: %v", err)
	}
	keyB64, err := xdr.MarshalBase64(key)
	if err != nil {
		fail("account key: %v", err)
	}
	resp := got(f.rpc.GetLedgerEntries(f.ctx, protocol.GetLedgerEntriesRequest{Keys: []string{keyB64}})).check(f, "getLedgerEntries")
	if len(resp.Entries) != 1 || resp.Entries[0].KeyXDR != keyB64 {
		fail("getLedgerEntries: expected the one account entry, got %d entries", len(resp.Entries))
	}
	var data xdr.LedgerEntryData
	if err := xdr.SafeUnmarshalBase64(resp.Entries[0].DataXDR, &data); err != nil || data.Account == nil {
		fail("getLedgerEntries: xdr is not an account LedgerEntryData (%v)", err)
	}
	if data.Account.AccountId.Address() != addr {
		fail("getLedgerEntries: entry is account %s, asked for %s", data.Account.AccountId.Address(), addr)
	}
	step("getLedgerEntries: account balance %d stroops, modified in ledger %d", data.Account.Balance, resp.Entries[0].LastModifiedLedger)
}
