"""The Python SDK flow: every Stellar RPC method the project's node serves, called through the
official Python SDK (stellar-sdk on PyPI, stellar_sdk.SorobanServer) against a node given as the
first argument or SANDBOX_RPC_URL. The SDK parses each answer into its pydantic models
(stellar_sdk/soroban_rpc.py), so a missing field or a value of the wrong kind fails the call; the
flow then decodes the XDR it got and checks what it means. It exits 1 with a message naming the
method on the first difference or failure.

    python flow.py http://127.0.0.1:8000/rpc
"""

from __future__ import annotations

import os
import sys

import requests
from stellar_sdk import Asset, Keypair, SorobanServer, TransactionBuilder, scval
from stellar_sdk import xdr as stellar_xdr
from stellar_sdk.exceptions import BaseRequestError, SorobanRpcErrorResponse
from stellar_sdk.soroban_rpc import (
    EventFilter,
    EventFilterType,
    GetTransactionStatus,
    SendTransactionStatus,
)
from pydantic import ValidationError

TRANSFER_STROOPS = 10_000_000


class FlowError(Exception):
    pass


def step(text: str) -> None:
    print(f"ok  {text}", flush=True)


def check(cond: bool, text: str) -> None:
    if not cond:
        raise FlowError(text)


class Flow:
    def __init__(self, rpc_url: str) -> None:
        self.server = SorobanServer(rpc_url)
        self.passphrase = ""

    def run(self) -> None:
        health = self.server.get_health()
        check(health.status == "healthy", f"getHealth: status {health.status!r}, expected 'healthy'")
        step(f"getHealth: {health.status}, ledgers {health.oldest_ledger}..{health.latest_ledger}")

        network = self.server.get_network()
        self.passphrase = network.passphrase
        check(bool(network.friendbot_url), "getNetwork: no friendbotUrl (the flow funds its account through it)")
        step(f"getNetwork: {network.passphrase!r}, protocol {network.protocol_version}")

        latest = self.server.get_latest_ledger()
        # stellar-rpc's getLatestLedger sends the LedgerHeader; getLedgers the LedgerHeaderHistoryEntry.
        header = stellar_xdr.LedgerHeader.from_xdr(latest.header_xdr)
        check(header.ledger_seq.uint32 == latest.sequence, f"getLatestLedger: headerXdr is ledger {header.ledger_seq.uint32}, sequence {latest.sequence}")
        stellar_xdr.LedgerCloseMeta.from_xdr(latest.metadata_xdr)
        step(f"getLatestLedger: {latest.sequence} ({latest.id})")
        start = latest.sequence

        source, dest = Keypair.random(), Keypair.random()
        self.friendbot(network.friendbot_url, source.public_key)
        self.friendbot(network.friendbot_url, dest.public_key)

        payment_hash = self.payment(source, dest.public_key)
        self.account_entry(source.public_key)
        sac, transfer_hash, transfer_ledger = self.sac_transfer(source, dest.public_key)
        self.transfer_event(sac, transfer_hash, start)
        self.ranges(start, transfer_ledger, [payment_hash, transfer_hash])

        fees = self.server.get_fee_stats()
        check(fees.latest_ledger >= transfer_ledger, f"getFeeStats: latestLedger {fees.latest_ledger} is before {transfer_ledger}")
        step(f"getFeeStats: inclusion fee p50 {fees.inclusion_fee.p50}, Soroban p50 {fees.soroban_inclusion_fee.p50}")

        version = self.server.get_version_info()
        check(bool(version.version) and version.protocol_version > 0, f"getVersionInfo: {version}")
        step(f"getVersionInfo: {version.version} (protocol {version.protocol_version})")

    def friendbot(self, url: str, address: str) -> None:
        res = requests.get(url, params={"addr": address}, timeout=30)
        body = res.json()
        check(res.status_code == 200 and bool(body.get("hash")), f"friendbot: status {res.status_code}, answer {body}")
        self.poll("friendbot's transaction", body["hash"])
        step(f"friendbot funded {address} ({body['hash']})")

    def submit(self, what: str, envelope, signer: Keypair):
        envelope.sign(signer)
        expected = envelope.hash_hex()
        sent = self.server.send_transaction(envelope)
        check(
            sent.status == SendTransactionStatus.PENDING and sent.hash == expected,
            f"sendTransaction ({what}): status {sent.status} hash {sent.hash}, expected PENDING {expected} ({sent.error_result_xdr})",
        )
        return self.poll(what, expected)

    def poll(self, what: str, tx_hash: str):
        res = self.server.poll_transaction(tx_hash, max_attempts=100, sleep_strategy=lambda _: 0.1)
        check(res.status == GetTransactionStatus.SUCCESS, f"getTransaction ({what}): status {res.status}, result {res.result_xdr}")
        check(res.transaction_hash == tx_hash, f"getTransaction ({what}): txHash {res.transaction_hash}, asked for {tx_hash}")
        check(res.ledger is not None and res.create_at is not None, f"getTransaction ({what}): no ledger or createdAt")
        stellar_xdr.TransactionMeta.from_xdr(res.result_meta_xdr)
        result = stellar_xdr.TransactionResult.from_xdr(res.result_xdr)
        check(result.result.code == stellar_xdr.TransactionResultCode.txSUCCESS, f"getTransaction ({what}): result code {result.result.code}")
        return res

    def builder(self, address: str) -> TransactionBuilder:
        account = self.server.load_account(address)
        return TransactionBuilder(account, self.passphrase, base_fee=100).set_timeout(60)

    def payment(self, source: Keypair, dest: str) -> str:
        tx = self.builder(source.public_key).append_payment_op(dest, Asset.native(), "12.5").build()
        res = self.submit("payment", tx, source)
        step(f"payment: sendTransaction PENDING, getTransaction SUCCESS in ledger {res.ledger}")
        return res.transaction_hash

    def account_entry(self, address: str) -> None:
        key = stellar_xdr.LedgerKey(
            stellar_xdr.LedgerEntryType.ACCOUNT,
            account=stellar_xdr.LedgerKeyAccount(Keypair.from_public_key(address).xdr_account_id()),
        )
        res = self.server.get_ledger_entries([key])
        check(res.entries is not None and len(res.entries) == 1, f"getLedgerEntries: expected the one account entry, got {res.entries}")
        entry = res.entries[0]
        check(entry.key == key.to_xdr(), "getLedgerEntries: the entry's key is not the key asked for")
        data = stellar_xdr.LedgerEntryData.from_xdr(entry.xdr)
        check(data.account is not None, "getLedgerEntries: xdr is not an account entry")
        check(data.account.account_id == Keypair.from_public_key(address).xdr_account_id(), "getLedgerEntries: another account's entry")
        step(f"getLedgerEntries: account balance {data.account.balance.int64} stroops, modified in ledger {entry.last_modified_ledger}")

    def soroban(self, what: str, source: Keypair, build) -> tuple[stellar_xdr.SCVal, object]:
        """Simulates, prepares (SorobanServer.prepare_transaction), signs, sends and polls a transaction
        with one host function; returns the simulated return value and the final getTransaction answer."""
        draft = build(self.builder(source.public_key)).build()
        sim = self.server.simulate_transaction(draft)
        check(sim.error is None, f"simulateTransaction ({what}): {sim.error}")
        check(sim.results is not None and len(sim.results) == 1, f"simulateTransaction ({what}): results {sim.results}")
        check(sim.min_resource_fee is not None and sim.min_resource_fee > 0, f"simulateTransaction ({what}): minResourceFee {sim.min_resource_fee}")
        data = stellar_xdr.SorobanTransactionData.from_xdr(sim.transaction_data)
        check(data.resource_fee.int64 == sim.min_resource_fee, f"simulateTransaction ({what}): resourceFee {data.resource_fee.int64}, minResourceFee {sim.min_resource_fee}")
        ret = stellar_xdr.SCVal.from_xdr(sim.results[0].xdr)
        auth = [stellar_xdr.SorobanAuthorizationEntry.from_xdr(a) for a in sim.results[0].auth or []]
        step(f"simulateTransaction: {what}, minResourceFee {sim.min_resource_fee}, {len(auth)} auth entries")
        prepared = self.server.prepare_transaction(draft, sim)
        check(prepared.transaction.fee == draft.transaction.fee + sim.min_resource_fee, f"prepareTransaction ({what}): fee {prepared.transaction.fee}")
        res = self.submit(what, prepared, source)
        step(f"{what}: sendTransaction PENDING, getTransaction SUCCESS in ledger {res.ledger}")
        return ret, res

    def native_sac(self, source: Keypair) -> str:
        """The native asset contract's strkey, deploying it when the node does not have it yet."""
        sac = Asset.native().contract_id(self.passphrase)
        key = stellar_xdr.LedgerKey(
            stellar_xdr.LedgerEntryType.CONTRACT_DATA,
            contract_data=stellar_xdr.LedgerKeyContractData(
                contract=scval.to_address(sac).address,
                key=stellar_xdr.SCVal(stellar_xdr.SCValType.SCV_LEDGER_KEY_CONTRACT_INSTANCE),
                durability=stellar_xdr.ContractDataDurability.PERSISTENT,
            ),
        )
        if self.server.get_ledger_entries([key]).entries:
            step(f"getLedgerEntries: native SAC {sac} is deployed")
            return sac
        self.soroban("deploy the native SAC", source, lambda b: b.append_create_stellar_asset_contract_from_asset_op(Asset.native()))
        return sac

    def sac_transfer(self, source: Keypair, dest: str) -> tuple[str, str, int]:
        sac = self.native_sac(source)
        args = [scval.to_address(source.public_key), scval.to_address(dest), scval.to_int128(TRANSFER_STROOPS)]
        ret, res = self.soroban("SAC transfer", source, lambda b: b.append_invoke_contract_function_op(sac, "transfer", args))
        check(ret.type == stellar_xdr.SCValType.SCV_VOID, f"simulateTransaction: transfer returned {ret.type}, expected void")
        return sac, res.transaction_hash, res.ledger

    def transfer_event(self, sac: str, tx_hash: str, start: int) -> None:
        name = scval.to_symbol("transfer").to_xdr()
        res = self.server.get_events(
            start_ledger=start,
            filters=[EventFilter(event_type=EventFilterType.CONTRACT, contract_ids=[sac], topics=[[name, "**"]])],
            limit=100,
        )
        for ev in res.events:
            if ev.transaction_hash != tx_hash:
                continue
            check(ev.contract_id == sac and ev.event_type == "contract" and len(ev.topic) >= 3, f"getEvents: the transfer event {ev}")
            # CAP-67: the value is the i128 amount (a map when the receiver is muxed)
            check(scval.from_int128(ev.value) == TRANSFER_STROOPS, f"getEvents: transfer value {ev.value}")
            step(f"getEvents: the transfer's event {ev.id} in ledger {ev.ledger}")
            return
        raise FlowError(f"getEvents: no transfer event of {sac} from ledger {start} for {tx_hash} ({len(res.events)} events)")

    def ranges(self, start: int, last: int, hashes: list[str]) -> None:
        seen: dict[str, int] = {}
        cursor = None
        for _ in range(50):
            page = self.server.get_transactions(start_ledger=None if cursor else start, cursor=cursor, limit=5)
            for tx in page.transactions:
                stellar_xdr.TransactionEnvelope.from_xdr(tx.envelope_xdr)
                seen[tx.transaction_hash] = tx.ledger
            if not page.transactions or page.transactions[-1].ledger >= last or page.cursor == cursor:
                break
            cursor = page.cursor
        missing = [h for h in hashes if h not in seen]
        check(not missing, f"getTransactions: {missing} not in the pages from ledger {start}")
        step(f"getTransactions: {len(seen)} transactions from ledger {start}, the flow's {len(hashes)} among them")

        ledgers: set[int] = set()
        cursor = None
        for _ in range(50):
            page = self.server.get_ledgers(start_ledger=None if cursor else start, cursor=cursor, limit=5)
            for ledger in page.ledgers:
                header = stellar_xdr.LedgerHeaderHistoryEntry.from_xdr(ledger.header_xdr)
                check(header.header.ledger_seq.uint32 == ledger.sequence, f"getLedgers: headerXdr of {ledger.sequence} is another ledger")
                check(header.hash.hash.hex() == ledger.hash, f"getLedgers: ledger {ledger.sequence} hash {ledger.hash}, header says {header.hash.hash.hex()}")
                stellar_xdr.LedgerCloseMeta.from_xdr(ledger.metadata_xdr)
                ledgers.add(ledger.sequence)
            if not page.ledgers or page.ledgers[-1].sequence >= last or page.cursor == cursor:
                break
            cursor = page.cursor
        gaps = [s for s in range(start, last + 1) if s not in ledgers]
        check(not gaps, f"getLedgers: ledgers {gaps} missing from the pages {start}..{last}")
        step(f"getLedgers: ledgers {start}..{last}, headers and metadata decode")


def main() -> int:
    rpc_url = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("SANDBOX_RPC_URL", "")
    if not rpc_url:
        print("python sdk flow: usage: python flow.py <rpc-url> (or set SANDBOX_RPC_URL)", file=sys.stderr)
        return 2
    try:
        Flow(rpc_url).run()
    except ValidationError as err:
        # the SDK's models refused an answer: a field missing or of the wrong kind
        print(f"python sdk flow: an answer does not fit stellar_sdk.soroban_rpc: {err}", file=sys.stderr)
        return 1
    except (FlowError, SorobanRpcErrorResponse, BaseRequestError, ValueError) as err:
        print(f"python sdk flow: {type(err).__name__}: {err}", file=sys.stderr)
        return 1
    print("python sdk flow: all methods agree with stellar-sdk")
    return 0


if __name__ == "__main__":
    sys.exit(main())
