import { create } from 'xmlbuilder2'
import {
	amountOf,
	discountReason,
	discountReasonCode,
	exemptionOf,
	hasRate,
	peppolCustomizationId,
	peppolProfileId,
	registrationIdOf,
	signed,
	unitCode,
	vatIdsOf,
} from './invoices.einvoice-fields.ts'
import type { InvoiceDocument } from './invoices.pdf-model.ts'

// UBL 2.1 Invoice / CreditNote as Peppol BIS Billing 3.0 wants it. Elements are written in the
// order the UBL schema's sequences require (the XSD refuses any other). The BT-/BG- numbers
// are EN 16931's; invoices.einvoice.ts says how amounts and credit notes are written.

const namespaces = {
	Invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
	CreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
	cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
	cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
}

type Node = ReturnType<typeof create>

/** A child with text; left out when the text is empty. */
function add(parent: Node, name: string, text: string | null | undefined, attributes?: Record<string, string>) {
	if (text === null || text === undefined || text === '') {
		return
	}
	parent.ele(name, attributes).txt(text)
}

function vatScheme(parent: Node) {
	parent.ele('cac:TaxScheme').ele('cbc:ID').txt('VAT')
}

type Party = {
	name: string
	email: string | null
	address: { lines: string[]; postcode: string; city: string; country: string } | null
	vatId: string | null
	/** BT-30, the seller's legal registration identifier. */
	registrationId?: string | null
}

/** BG-4 seller / BG-7 buyer. */
function party(parent: Node, role: 'cac:AccountingSupplierParty' | 'cac:AccountingCustomerParty', who: Party) {
	const node = parent.ele(role).ele('cac:Party')
	// BT-34 / BT-49: Peppol requires an electronic address; an e-mail address is scheme EM.
	add(node, 'cbc:EndpointID', who.email, { schemeID: 'EM' })
	if (who.address) {
		const address = node.ele('cac:PostalAddress')
		const [first, second, ...rest] = who.address.lines
		add(address, 'cbc:StreetName', first)
		add(address, 'cbc:AdditionalStreetName', second)
		add(address, 'cbc:CityName', who.address.city)
		add(address, 'cbc:PostalZone', who.address.postcode)
		if (rest.length > 0) {
			address.ele('cac:AddressLine').ele('cbc:Line').txt(rest.join(', '))
		}
		address.ele('cac:Country').ele('cbc:IdentificationCode').txt(who.address.country)
	}
	if (who.vatId) {
		const tax = node.ele('cac:PartyTaxScheme')
		tax.ele('cbc:CompanyID').txt(who.vatId)
		vatScheme(tax)
	}
	const legal = node.ele('cac:PartyLegalEntity')
	legal.ele('cbc:RegistrationName').txt(who.name)
	add(legal, 'cbc:CompanyID', who.registrationId)
	if (who.email) {
		node.ele('cac:Contact').ele('cbc:ElectronicMail').txt(who.email)
	}
}

/** A VAT category with its rate (BT-95/96, BT-118/119, BT-151/152); O has no rate. */
function taxCategory(parent: Node, name: 'cac:TaxCategory' | 'cac:ClassifiedTaxCategory', code: string, rate: string) {
	const node = parent.ele(name)
	node.ele('cbc:ID').txt(code)
	if (hasRate(code)) {
		node.ele('cbc:Percent').txt(rate)
	}
	return node
}

/** The document as a UBL 2.1 Invoice or CreditNote (Peppol BIS Billing 3.0). */
export function ublXml(document: InvoiceDocument): string {
	const { totals, profile, client } = document
	const isCreditNote = document.kind === 'creditNote'
	const root = isCreditNote ? 'CreditNote' : 'Invoice'
	const currencyID = totals.currency
	const amount = amountOf(document)
	const sign = signed(document)
	const vatIds = vatIdsOf(document)
	const money = (parent: Node, name: string, value: string) => parent.ele(name, { currencyID }).txt(value)

	const doc = create({ version: '1.0', encoding: 'UTF-8' }).ele(namespaces[root], root, {
		'xmlns:cac': namespaces.cac,
		'xmlns:cbc': namespaces.cbc,
	})
	add(doc, 'cbc:CustomizationID', peppolCustomizationId)
	add(doc, 'cbc:ProfileID', peppolProfileId)
	add(doc, 'cbc:ID', document.number)
	add(doc, 'cbc:IssueDate', document.issueDate)
	if (!isCreditNote) {
		add(doc, 'cbc:DueDate', document.dueDate)
	}
	// BT-3: 380 commercial invoice, 381 credit note.
	add(doc, isCreditNote ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode', isCreditNote ? '381' : '380')
	add(doc, 'cbc:Note', profile.notes)
	add(doc, 'cbc:DocumentCurrencyCode', currencyID)
	if (document.corrects) {
		// BG-3: the invoice this credit note corrects.
		doc.ele('cac:BillingReference').ele('cac:InvoiceDocumentReference').ele('cbc:ID').txt(document.corrects)
	}
	party(doc, 'cac:AccountingSupplierParty', {
		name: profile.legalName,
		email: profile.email,
		address: profile.address,
		vatId: vatIds.seller,
		registrationId: registrationIdOf(document),
	})
	party(doc, 'cac:AccountingCustomerParty', {
		name: client.name,
		email: client.email,
		address: client.address,
		vatId: vatIds.buyer,
	})

	// BG-16: the seller's account to pay an invoice into (58: SEPA credit transfer).
	if (!isCreditNote && profile.bank?.kind === 'iban') {
		const means = doc.ele('cac:PaymentMeans')
		add(means, 'cbc:PaymentMeansCode', '58')
		add(means, 'cbc:PaymentID', document.number)
		const account = means.ele('cac:PayeeFinancialAccount')
		add(account, 'cbc:ID', profile.bank.iban)
		add(account, 'cbc:Name', profile.bank.accountHolder ?? profile.legalName)
		if (profile.bank.bic) {
			account.ele('cac:FinancialInstitutionBranch').ele('cbc:ID').txt(profile.bank.bic)
		}
	}
	if (document.paymentTerms) {
		doc.ele('cac:PaymentTerms').ele('cbc:Note').txt(document.paymentTerms)
	}

	// BG-20: document discounts, one per VAT category and rate as the money core split them.
	for (const allowance of totals.allowances) {
		const node = doc.ele('cac:AllowanceCharge')
		add(node, 'cbc:ChargeIndicator', 'false')
		add(node, 'cbc:AllowanceChargeReasonCode', discountReasonCode)
		add(node, 'cbc:AllowanceChargeReason', allowance.reason ?? discountReason)
		add(node, 'cbc:MultiplierFactorNumeric', allowance.percent)
		money(node, 'cbc:Amount', amount(allowance.amount))
		if (allowance.baseAmount) {
			money(node, 'cbc:BaseAmount', amount(allowance.baseAmount))
		}
		vatScheme(taxCategory(node, 'cac:TaxCategory', allowance.categoryCode, allowance.rate))
	}

	// BG-23: the VAT breakdown, each category's tax rounded once by the money core.
	const taxTotal = doc.ele('cac:TaxTotal')
	money(taxTotal, 'cbc:TaxAmount', amount(totals.vatTotal))
	for (const group of totals.vatBreakdown) {
		const subtotal = taxTotal.ele('cac:TaxSubtotal')
		money(subtotal, 'cbc:TaxableAmount', amount(group.taxableAmount))
		money(subtotal, 'cbc:TaxAmount', amount(group.taxAmount))
		const category = taxCategory(subtotal, 'cac:TaxCategory', group.categoryCode, group.rate)
		const exemption = exemptionOf(document, group)
		add(category, 'cbc:TaxExemptionReasonCode', exemption.code)
		add(category, 'cbc:TaxExemptionReason', exemption.reason)
		vatScheme(category)
	}

	// BG-22: the totals.
	const sums = doc.ele('cac:LegalMonetaryTotal')
	money(sums, 'cbc:LineExtensionAmount', amount(totals.lineNetTotal))
	money(sums, 'cbc:TaxExclusiveAmount', amount(totals.taxExclusiveAmount))
	money(sums, 'cbc:TaxInclusiveAmount', amount(totals.taxInclusiveAmount))
	if (totals.allowances.length > 0) {
		money(sums, 'cbc:AllowanceTotalAmount', amount(totals.allowanceTotal))
	}
	if (totals.paidAmount.minor !== 0) {
		money(sums, 'cbc:PrepaidAmount', amount(totals.paidAmount))
	}
	money(sums, 'cbc:PayableAmount', amount(totals.amountDue))

	// BG-25: the lines.
	document.lines.forEach((line, index) => {
		const figures = totals.lines[index]
		if (!figures) {
			throw new RangeError(`The totals have no line ${index}: export with the totals of these lines.`)
		}
		const node = doc.ele(isCreditNote ? 'cac:CreditNoteLine' : 'cac:InvoiceLine')
		add(node, 'cbc:ID', String(index + 1))
		node
			.ele(isCreditNote ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity', { unitCode: unitCode(line.unit) })
			.txt(sign(line.quantity))
		money(node, 'cbc:LineExtensionAmount', amount(figures.net))
		if (figures.discount.minor !== 0) {
			// BG-27: the line's discount; its base is the line's gross (quantity × price).
			const discount = node.ele('cac:AllowanceCharge')
			add(discount, 'cbc:ChargeIndicator', 'false')
			add(discount, 'cbc:AllowanceChargeReasonCode', discountReasonCode)
			add(discount, 'cbc:AllowanceChargeReason', discountReason)
			if (line.discount?.kind === 'percent') {
				add(discount, 'cbc:MultiplierFactorNumeric', line.discount.percent)
			}
			money(discount, 'cbc:Amount', amount(figures.discount))
			if (line.discount?.kind === 'percent') {
				money(discount, 'cbc:BaseAmount', amount(figures.gross))
			}
		}
		const item = node.ele('cac:Item')
		add(item, 'cbc:Name', line.description)
		vatScheme(taxCategory(item, 'cac:ClassifiedTaxCategory', figures.categoryCode, figures.rate))
		money(node.ele('cac:Price'), 'cbc:PriceAmount', line.unitPrice)
	})
	return doc.end({ prettyPrint: true })
}
