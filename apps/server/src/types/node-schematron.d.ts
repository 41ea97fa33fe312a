// The part of node-schematron the e-invoice tests use. Its own typings import fontoxpath's, which
// pull the DOM library into the whole server's type check (the DOM's fetch and BodyInit then
// replace Node's, and correct Node code stops compiling). tsconfig maps the module here instead.
declare module 'node-schematron' {
	export type SchematronResult = {
		isReport: boolean
		assertId: string
		message: string | null
	}
	export class Schema {
		static fromString(schematron: string): Schema
		validateString(xml: string): SchematronResult[]
	}
}
