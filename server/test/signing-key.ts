/** A TICKET_SIGNING_KEY for the production starts of tests: a fresh Ed25519 key, never the development one (production refuses it). */
import { generateKeyPairSync } from 'node:crypto'

/** PKCS#8 PEM of a key made for this test process. */
export const TEST_SIGNING_KEY = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
