import { Address, Keypair, hash, xdr } from '@stellar/stellar-sdk'

/**
 * Deterministic material for a world: every keypair, salt and amount is derived from the seed
 * and a label, so the same seed on the same network gives the same addresses.
 */
export function seedBytes(seed: bigint, label: string): Uint8Array {
  return hash(Buffer.from(`pooled-liquidations/world/${seed.toString()}/${label}`))
}

/** Ed25519 keypair for `label` under `seed`. */
export function keypairFor(seed: bigint, label: string): Keypair {
  return Keypair.fromRawEd25519Seed(seedBytes(seed, label))
}

/**
 * Address of a contract that `deployer` creates with `salt` (the network derives it from the
 * network id, the deployer and the salt, before the contract exists).
 */
export function contractAddress(networkPassphrase: string, deployer: string, salt: Uint8Array): string {
  const preimage = xdr.HashIdPreimage.envelopeTypeContractId(
    new xdr.HashIdPreimageContractId({
      networkId: hash(Buffer.from(networkPassphrase)),
      contractIdPreimage: xdr.ContractIdPreimage.contractIdPreimageFromAddress(
        new xdr.ContractIdPreimageFromAddress({ address: new Address(deployer).toScAddress(), salt: Buffer.from(salt) }),
      ),
    }),
  )
  return Address.contract(hash(preimage.toXdr())).toString()
}

/**
 * Small deterministic generator (SplitMix64) for amounts that vary per borrower.
 */
export class SeededRandom {
  private state: bigint
  constructor(seed: bigint) {
    this.state = BigInt.asUintN(64, seed ^ 0x9e3779b97f4a7c15n)
  }
  /** Next 64-bit value. */
  next(): bigint {
    this.state = BigInt.asUintN(64, this.state + 0x9e3779b97f4a7c15n)
    let z = this.state
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n)
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn)
    return z ^ (z >> 31n)
  }
  /** Uniform integer in [lo, hi] (hi >= lo). */
  between(lo: bigint, hi: bigint): bigint {
    return lo + (this.next() % (hi - lo + 1n))
  }
}
