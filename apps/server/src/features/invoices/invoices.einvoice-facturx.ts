import { type EInvoiceResult, eInvoiceXml } from './invoices.einvoice.ts'
import { type PdfExtras, renderInvoicePdf } from './invoices.pdf.ts'
import type { InvoiceDocument } from './invoices.pdf-model.ts'

// Factur-X 1.0 / ZUGFeRD 2.x: the invoice's PDF, drawn exactly as invoices.pdf.ts draws it, as
// a PDF/A-3b with the CII XML (EN 16931 profile) attached as `factur-x.xml` (relationship
// Alternative: the XML and the page are the same invoice) and the XMP metadata a Factur-X
// reader looks for (the fx: properties and the PDF/A extension schema that declares them).
//
// PDF/A embeds every font, so the document is drawn in the sans font (Inter, embedded as a
// subset) whatever the profile chose: PDF's Times and Courier are not embedded.

export const facturXFileName = 'factur-x.xml'
const facturXNamespace = 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#'
/** Factur-X's name for the EN 16931 profile (its other levels are MINIMUM … EXTENDED). */
const conformanceLevel = 'EN 16931'

function facturXMetadata(): string {
	const property = (name: string, description: string) => `
						<rdf:li rdf:parseType="Resource">
							<pdfaProperty:name>${name}</pdfaProperty:name>
							<pdfaProperty:valueType>Text</pdfaProperty:valueType>
							<pdfaProperty:category>external</pdfaProperty:category>
							<pdfaProperty:description>${description}</pdfaProperty:description>
						</rdf:li>`
	return `
		<rdf:Description rdf:about="" xmlns:fx="${facturXNamespace}">
			<fx:DocumentType>INVOICE</fx:DocumentType>
			<fx:DocumentFileName>${facturXFileName}</fx:DocumentFileName>
			<fx:Version>1.0</fx:Version>
			<fx:ConformanceLevel>${conformanceLevel}</fx:ConformanceLevel>
		</rdf:Description>
		<rdf:Description rdf:about=""
			xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/"
			xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#"
			xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
			<pdfaExtension:schemas>
				<rdf:Bag>
					<rdf:li rdf:parseType="Resource">
						<pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>
						<pdfaSchema:namespaceURI>${facturXNamespace}</pdfaSchema:namespaceURI>
						<pdfaSchema:prefix>fx</pdfaSchema:prefix>
						<pdfaSchema:property>
							<rdf:Seq>${[
								property('DocumentFileName', 'The name of the embedded XML invoice file'),
								property('DocumentType', 'INVOICE'),
								property('Version', 'The version of the Factur-X XML schema'),
								property('ConformanceLevel', 'The conformance level of the embedded XML'),
							].join('')}
							</rdf:Seq>
						</pdfaSchema:property>
					</rdf:li>
				</rdf:Bag>
			</pdfaExtension:schemas>
		</rdf:Description>`
}

const xmlEscapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }

/**
 * pdfkit copies the title and author into the XMP as they are, so "Smith & Sons" would make the
 * metadata invalid XML, and the file no PDF/A. The document information dictionary is written
 * first (with the text as it is); after it, and before the XMP, pdfkit calls endSubset: from
 * there the XMP reads escaped copies. Both then say the same once the XML is read.
 */
function escapeXmpInfo(doc: Parameters<NonNullable<PdfExtras['beforeEnd']>>[0]): void {
	const internals = doc as unknown as { endSubset: () => void; info: Record<string, unknown> }
	const endSubset = internals.endSubset.bind(doc)
	internals.endSubset = () => {
		endSubset()
		internals.info = Object.fromEntries(
			Object.entries(internals.info).map(([key, value]) => [
				key,
				typeof value === 'string' ? value.replace(/[&<>"]/g, (char) => xmlEscapes[char] ?? char) : value,
			]),
		)
	}
}

export type FacturXResult = { ok: true; pdf: Buffer; xml: string } | Extract<EInvoiceResult, { ok: false }>

/** The invoice as a Factur-X PDF (PDF/A-3b, CII XML attached); the same field errors as the XML. */
export async function renderFacturXPdf(document: InvoiceDocument, now = new Date()): Promise<FacturXResult> {
	const result = eInvoiceXml(document, 'cii')
	if (!result.ok) {
		return result
	}
	const { xml } = result
	const sans = { ...document.profile.template, font: 'sans' as const }
	const pdf = await renderInvoicePdf(
		{ ...document, profile: { ...document.profile, template: sans } },
		{
			options: { subset: 'PDF/A-3b', pdfVersion: '1.7' },
			beforeEnd: (doc) => {
				// pdfkit 0.20 writes AFRelationship (PDF/A-3); its types do not list it yet.
				const attachment = {
					name: facturXFileName,
					type: 'text/xml',
					relationship: 'Alternative',
					description: 'Factur-X invoice (EN 16931)',
					creationDate: now,
					modifiedDate: now,
				}
				doc.file(Buffer.from(xml, 'utf8'), attachment)
				doc.appendXML(facturXMetadata())
				escapeXmpInfo(doc)
			},
		},
	)
	return { ok: true, pdf, xml }
}
