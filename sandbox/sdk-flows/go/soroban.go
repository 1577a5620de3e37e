package main

// The Soroban half of the flow: a native asset contract (SAC) `transfer` simulated, assembled
// the way stellar-cli and the JS SDK's assembleTransaction do (the simulation's
// SorobanTransactionData on the transaction, its auth entries on the operation, the resource
// fee on top of the inclusion fee; txnbuild adds SorobanData.ResourceFee to the fee in
// txnbuild/transaction.go), signed, sent and polled; then getEvents, getTransactions and
// getLedgers over the ledgers the flow wrote.

import (
	"bytes"

	protocol "github.com/stellar/go-stellar-sdk/protocols/rpc"
	"github.com/stellar/go-stellar-sdk/strkey"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"

	"github.com/stellar/go-stellar-sdk/keypair"
)

const transferStroops = 10_000_000

func accountAddress(addr string) xdr.ScVal {
	id := xdr.MustAddress(addr)
	return xdr.ScVal{Type: xdr.ScValTypeScvAddress, Address: &xdr.ScAddress{Type: xdr.ScAddressTypeScAddressTypeAccount, AccountId: &id}}
}

// nativeSAC returns the native asset contract's id and strkey, deploying the contract first
// when the node does not have it (a new standalone network starts without it).
func (f *flow) nativeSAC(source *keypair.Full) (xdr.ContractId, string) {
	native := xdr.MustNewNativeAsset()
	raw, err := native.ContractID(f.passphrase)
	if err != nil {
		fail("native asset contract id: %v", err)
	}
	contractID := xdr.ContractId(raw)
	sac := strkey.MustEncode(strkey.VersionByteContract, raw[:])
	key := xdr.LedgerKey{Type: xdr.LedgerEntryTypeContractData, ContractData: &xdr.LedgerKeyContractData{
		Contract:   xdr.ScAddress{Type: xdr.ScAddressTypeScAddressTypeContract, ContractId: &contractID},
		Key:        xdr.ScVal{Type: xdr.ScValTypeScvLedgerKeyContractInstance},
		Durability: xdr.ContractDataDurabilityPersistent,
	}}
	keyB64, err := xdr.MarshalBase64(key)
	if err != nil {
		fail("SAC instance key: %v", err)
	}
	entries := got(f.rpc.GetLedgerEntries(f.ctx, protocol.GetLedgerEntriesRequest{Keys: []string{keyB64}})).check(f, "getLedgerEntries")
	if len(entries.Entries) == 1 {
		step("getLedgerEntries: native SAC %s is deployed", sac)
		return contractID, sac
	}
	f.soroban("deploy the native SAC", source, xdr.HostFunction{
		Type: xdr.HostFunctionTypeHostFunctionTypeCreateContract,
		CreateContract: &xdr.CreateContractArgs{
			ContractIdPreimage: xdr.ContractIdPreimage{Type: xdr.ContractIdPreimageTypeContractIdPreimageFromAsset, FromAsset: &native},
			Executable:         xdr.ContractExecutable{Type: xdr.ContractExecutableTypeContractExecutableStellarAsset},
		},
	})
	return contractID, sac
}

// sacTransfer moves transferStroops of XLM from source to dest through the native SAC and
// returns the contract's strkey, the transaction hash and its ledger.
func (f *flow) sacTransfer(source *keypair.Full, dest string) (string, string, uint32) {
	contractID, sac := f.nativeSAC(source)
	ret, res := f.soroban("SAC transfer", source, xdr.HostFunction{
		Type: xdr.HostFunctionTypeHostFunctionTypeInvokeContract,
		InvokeContract: &xdr.InvokeContractArgs{
			ContractAddress: xdr.ScAddress{Type: xdr.ScAddressTypeScAddressTypeContract, ContractId: &contractID},
			FunctionName:    "transfer",
			Args: xdr.ScVec{
				accountAddress(source.Address()),
				accountAddress(dest),
				{Type: xdr.ScValTypeScvI128, I128: &xdr.Int128Parts{Hi: 0, Lo: transferStroops}},
			},
		},
	})
	if ret.Type != xdr.ScValTypeScvVoid {
		fail("simulateTransaction: transfer returned %v, expected void", ret.Type)
	}
	return sac, res.TransactionHash, res.Ledger
}

// soroban simulates a transaction with one host function, assembles it from the simulation,
// signs, sends and polls it; it returns the simulated return value and the final answer.
func (f *flow) soroban(what string, source *keypair.Full, hf xdr.HostFunction) (xdr.ScVal, protocol.GetTransactionResponse) {
	account := f.load(source.Address())
	params := func(op *txnbuild.InvokeHostFunction) txnbuild.TransactionParams {
		seq, _ := account.GetSequenceNumber()
		return txnbuild.TransactionParams{
			SourceAccount:        &txnbuild.SimpleAccount{AccountID: source.Address(), Sequence: seq},
			IncrementSequenceNum: true,
			Operations:           []txnbuild.Operation{op},
			BaseFee:              txnbuild.MinBaseFee,
			Preconditions:        txnbuild.Preconditions{TimeBounds: txnbuild.NewTimeout(60)},
		}
	}
	draft, err := txnbuild.NewTransaction(params(&txnbuild.InvokeHostFunction{SourceAccount: source.Address(), HostFunction: hf}))
	if err != nil {
		fail("%s: building: %v", what, err)
	}
	draftXDR, err := draft.Base64()
	if err != nil {
		fail("%s: encoding: %v", what, err)
	}
	sim := got(f.rpc.SimulateTransaction(f.ctx, protocol.SimulateTransactionRequest{Transaction: draftXDR})).check(f, "simulateTransaction")
	if sim.Error != "" {
		fail("simulateTransaction (%s): %s", what, sim.Error)
	}
	if len(sim.Results) != 1 || sim.Results[0].ReturnValueXDR == nil || sim.Results[0].AuthXDR == nil {
		fail("simulateTransaction (%s): expected one result with xdr and auth, got %+v", what, sim.Results)
	}
	var ret xdr.ScVal
	if err := xdr.SafeUnmarshalBase64(*sim.Results[0].ReturnValueXDR, &ret); err != nil {
		fail("simulateTransaction (%s): results[0].xdr is not an ScVal: %v", what, err)
	}
	var data xdr.SorobanTransactionData
	if err := xdr.SafeUnmarshalBase64(sim.TransactionDataXDR, &data); err != nil {
		fail("simulateTransaction (%s): transactionData is not SorobanTransactionData: %v", what, err)
	}
	// stellar-rpc answers minResourceFee as the transaction data's resourceFee
	// (cmd/stellar-rpc/lib/preflight/src/shared.rs).
	if sim.MinResourceFee <= 0 || int64(data.ResourceFee) != sim.MinResourceFee {
		fail("simulateTransaction (%s): minResourceFee %d, transactionData's resourceFee %d", what, sim.MinResourceFee, data.ResourceFee)
	}
	op := &txnbuild.InvokeHostFunction{SourceAccount: source.Address(), HostFunction: hf, Ext: xdr.TransactionExt{V: 1, SorobanData: &data}}
	for _, a := range *sim.Results[0].AuthXDR {
		var entry xdr.SorobanAuthorizationEntry
		if err := xdr.SafeUnmarshalBase64(a, &entry); err != nil {
			fail("simulateTransaction (%s): auth entry is not a SorobanAuthorizationEntry: %v", what, err)
		}
		op.Auth = append(op.Auth, entry)
	}
	step("simulateTransaction: %s, minResourceFee %d, %d auth entries", what, sim.MinResourceFee, len(op.Auth))
	tx, err := txnbuild.NewTransaction(params(op))
	if err != nil {
		fail("%s: assembling: %v", what, err)
	}
	res := f.submit(what, tx, source)
	step("%s: sendTransaction PENDING, getTransaction SUCCESS in ledger %d", what, res.Ledger)
	return ret, res
}

// transferEvent finds the transfer's `transfer` event through getEvents.
func (f *flow) transferEvent(sac, txHash string, start uint32) {
	symbol := xdr.ScSymbol("transfer")
	name := xdr.ScVal{Type: xdr.ScValTypeScvSymbol, Sym: &symbol}
	rest := protocol.WildCardZeroOrMore
	resp := got(f.rpc.GetEvents(f.ctx, protocol.GetEventsRequest{
		StartLedger: start,
		Filters: []protocol.EventFilter{{
			EventType:   protocol.EventTypeSet{protocol.EventTypeContract: nil},
			ContractIDs: []string{sac},
			Topics:      []protocol.TopicFilter{{{ScVal: &name}, {Wildcard: &rest}}},
		}},
		Pagination: &protocol.PaginationOptions{Limit: 100},
	})).check(f, "getEvents")
	for _, ev := range resp.Events {
		if ev.TransactionHash != txHash {
			continue
		}
		if ev.ContractID != sac || ev.EventType != protocol.EventTypeContract || len(ev.TopicXDR) < 3 {
			fail("getEvents: the transfer event has contractId %s type %s and %d topics", ev.ContractID, ev.EventType, len(ev.TopicXDR))
		}
		var amount xdr.ScVal
		if err := xdr.SafeUnmarshalBase64(ev.ValueXDR, &amount); err != nil {
			fail("getEvents: value is not an ScVal: %v", err)
		}
		// CAP-67: the value is the i128 amount (a map when the receiver is muxed)
		if amount.Type != xdr.ScValTypeScvI128 || uint64(amount.I128.Lo) != transferStroops {
			fail("getEvents: transfer value %v, expected i128 %d", amount, transferStroops)
		}
		step("getEvents: the transfer's event %s in ledger %d", ev.ID, ev.Ledger)
		return
	}
	fail("getEvents: no transfer event of %s from ledger %d for transaction %s (%d events)", sac, start, txHash, len(resp.Events))
}

// ranges pages getTransactions and getLedgers from start through last and checks that both
// of the flow's transactions and their ledgers are there.
func (f *flow) ranges(start, last uint32, hashes ...string) {
	seen := map[string]uint32{}
	cursor := ""
	for page := 0; page < 50; page++ {
		req := protocol.GetTransactionsRequest{Pagination: &protocol.LedgerPaginationOptions{Limit: 5, Cursor: cursor}}
		if cursor == "" {
			req.StartLedger = start
		}
		resp := got(f.rpc.GetTransactions(f.ctx, req)).check(f, "getTransactions")
		for _, tx := range resp.Transactions {
			var env xdr.TransactionEnvelope
			if err := xdr.SafeUnmarshalBase64(tx.EnvelopeXDR, &env); err != nil {
				fail("getTransactions: envelopeXdr of %s is not a TransactionEnvelope: %v", tx.TransactionHash, err)
			}
			seen[tx.TransactionHash] = tx.Ledger
		}
		if len(resp.Transactions) == 0 || resp.Transactions[len(resp.Transactions)-1].Ledger >= last || resp.Cursor == cursor {
			break
		}
		cursor = resp.Cursor
	}
	for _, h := range hashes {
		if _, ok := seen[h]; !ok {
			fail("getTransactions: transaction %s not in the pages from ledger %d", h, start)
		}
	}
	step("getTransactions: %d transactions from ledger %d, the flow's %d among them", len(seen), start, len(hashes))

	ledgers := map[uint32]bool{}
	cursor = ""
	for page := 0; page < 50; page++ {
		req := protocol.GetLedgersRequest{Pagination: &protocol.LedgerPaginationOptions{Limit: 5, Cursor: cursor}}
		if cursor == "" {
			req.StartLedger = start
		}
		resp := got(f.rpc.GetLedgers(f.ctx, req)).check(f, "getLedgers")
		for _, l := range resp.Ledgers {
			var header xdr.LedgerHeaderHistoryEntry
			if err := xdr.SafeUnmarshalBase64(l.LedgerHeader, &header); err != nil || uint32(header.Header.LedgerSeq) != l.Sequence {
				fail("getLedgers: headerXdr of ledger %d does not decode to it (%v)", l.Sequence, err)
			}
			var meta xdr.LedgerCloseMeta
			if err := xdr.SafeUnmarshalBase64(l.LedgerMetadata, &meta); err != nil {
				fail("getLedgers: metadataXdr of ledger %d is not a LedgerCloseMeta: %v", l.Sequence, err)
			}
			hash := header.Hash.HexString()
			if !bytes.Equal([]byte(hash), []byte(l.Hash)) {
				fail("getLedgers: ledger %d hash %s, its header says %s", l.Sequence, l.Hash, hash)
			}
			ledgers[l.Sequence] = true
		}
		if len(resp.Ledgers) == 0 || resp.Ledgers[len(resp.Ledgers)-1].Sequence >= last || resp.Cursor == cursor {
			break
		}
		cursor = resp.Cursor
	}
	for seq := start; seq <= last; seq++ {
		if !ledgers[seq] {
			fail("getLedgers: ledger %d missing from the pages %d..%d", seq, start, last)
		}
	}
	step("getLedgers: ledgers %d..%d, headers and metadata decode", start, last)
}
