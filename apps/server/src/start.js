// `npm start`'s entry. Plain JavaScript on purpose: Node strips TypeScript with a WebAssembly
// compiler it loads on first use, about 0.15 s of a start. Every module imported once the
// compile cache is on comes from the cache already stripped, so only the entry itself would
// need that compiler: with a JavaScript entry it is never loaded (decision 017).
import { enableCompileCache } from 'node:module'

enableCompileCache()
await import('./main.ts')
