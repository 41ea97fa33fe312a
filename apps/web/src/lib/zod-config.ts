// zod probes for eval (`new Function('')`) when it builds its first object schema, to compile
// faster parsers. Our CSP forbids eval: the probe fails harmlessly, but every page that builds a
// schema reported a CSP violation. Jitless mode skips the probe. zod keeps its settings on this
// global, shared by every copy of it, and reads it when it loads; setting it here, without
// importing zod, keeps zod out of the sign-in page's bundle. Imported first by main.tsx.
const holder = globalThis as { __zod_globalConfig?: { jitless?: boolean } }
holder.__zod_globalConfig = Object.assign(holder.__zod_globalConfig ?? {}, { jitless: true })
