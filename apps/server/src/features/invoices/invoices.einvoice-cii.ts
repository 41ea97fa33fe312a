import { create } from 'xmlbuilder2'
import {
	amountOf,
	discountReason,
	discountReasonCode,
	en16931Id,
	exemptionOf,
	hasRate,
	registrationIdOf,
	signed,
	unitCode,
	vatIdsOf,
} from './invoices.einvoice-fields.ts'
import type { InvoiceDocument } from './invoices.pdf-model.ts'

// UN/CEFACT Cross Industry Invoice D16B in the EN 16931 profile (what Factur-X's "EN 16931"
// and ZUGFeRD's "COMFORT" embed). Elements follow the schema's sequences (checked against the
// Factur-X EN 16931 XSD in the tests). The BT-/BG- numbers are EN 16931's; invoices.einvoice.ts
// says how amounts and credit notes are written.

const namespaces = {
	rsm: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
	ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
	qdt: 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
	udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
}

type Node = ReturnType<typeof create>

function add(parent: Node, name: string, text: string | null | undefined, attributes?: Record<string, string>) {
	if (text === null || text === undefined || text === '') {
		return
	}
	parent.ele(name, attributes).txt(text)
}

/** A calendar day as CII writes it: format 102, YYYYMMDD. */
function day(parent: Node, name: string, value: string) {
	parent.ele(name).ele('udt:DateTimeString', { format: '102' }).txt(value.replaceAll('-', ''))
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
function party(parent: Node, role: 'ram:SellerTradeParty' | 'ram:BuyerTradeParty', who: Party) {
	const node = parent.ele(role)
	add(node, 'ram:Name', who.name)
	if (who.registrationId) {
		node.ele('ram:SpecifiedLegalOrganization').ele('ram:ID').txt(who.registrationId)
	}
	if (who.address) {
		const address = node.ele('ram:PostalTradeAddress')
		const [first, second, ...rest] = who.address.lines
		add(address, 'ram:PostcodeCode', who.address.postcode)
		add(address, 'ram:LineOne', first)
		add(address, 'ram:LineTwo', second)
		add(address, 'ram:LineThree', rest.join(', '))
		add(address, 'ram:CityName', who.address.city)
		add(address, 'ram:CountryID', who.address.country)
	}
	if (who.email) {
		// BT-34 / BT-49: the electronic address, an e-mail address (scheme EM).
		node.ele('ram:URIUniversalCommunication').ele('ram:URIID', { schemeID: 'EM' }).txt(who.email)
	}
	if (who.vatId) {
		node.ele('ram:SpecifiedTaxRegistration').ele('ram:ID', { schemeID: 'VA' }).txt(who.vatId)
	}
}

/** A VAT category with its rate; O has no rate (BR-O-05). */
function category(parent: Node, code: string, rate: string) {
	add(parent, 'ram:CategoryCode', code)
	if (hasRate(code)) {
		add(parent, 'ram:RateApplicablePercent', rate)
	}
}

function discount(
	parent: Node,
	figures: { percent: string | null; base: string | null; amount: string; reason: string | null },
) {
	const node = parent.ele('ram:SpecifiedTradeAllowanceCharge')
	node.ele('ram:ChargeIndicator').ele('udt:Indicator').txt('false')
	add(node, 'ram:CalculationPercent', figures.percent)
	add(node, 'ram:BasisAmount', figures.base)
	add(node, 'ram:ActualAmount', figures.amount)
	add(node, 'ram:ReasonCode', discountReasonCode)
	add(node, 'ram:Reason', figures.reason ?? discountReason)
	return node
}

/** The document as a CII D16B CrossIndustryInvoice (EN 16931). */
export function ciiXml(document: InvoiceDocument): string {
	const { totals, profile, client } = document
	const isCreditNote = document.kind === 'creditNote'
	const amount = amountOf(document)
	const sign = signed(document)
	const vatIds = vatIdsOf(document)

	const doc = create({ version: '1.0', encoding: 'UTF-8' }).ele(namespaces.rsm, 'rsm:CrossIndustryInvoice', {
		'xmlns:ram': namespaces.ram,
		'xmlns:qdt': namespaces.qdt,
		'xmlns:udt': namespaces.udt,
	})
	doc
		.ele('rsm:ExchangedDocumentContext')
		.ele('ram:GuidelineSpecifiedDocumentContextParameter')
		.ele('ram:ID')
		.txt(en16931Id)
	const header = doc.ele('rsm:ExchangedDocument')
	add(header, 'ram:ID', document.number)
	add(header, 'ram:TypeCode', isCreditNote ? '381' : '380')
	day(header, 'ram:IssueDateTime', document.issueDate)
	if (profile.notes) {
		header.ele('ram:IncludedNote').ele('ram:Content').txt(profile.notes)
	}

	const transaction = doc.ele('rsm:SupplyChainTradeTransaction')
	// BG-25: the lines.
	document.lines.forEach((line, index) => {
		const figures = totals.lines[index]
		if (!figures) {
			throw new RangeError(`The totals have no line ${index}: export with the totals of these lines.`)
		}
		const item = transaction.ele('ram:IncludedSupplyChainTradeLineItem')
		item
			.ele('ram:AssociatedDocumentLineDocument')
			.ele('ram:LineID')
			.txt(String(index + 1))
		item.ele('ram:SpecifiedTradeProduct').ele('ram:Name').txt(line.description)
		item
			.ele('ram:SpecifiedLineTradeAgreement')
			.ele('ram:NetPriceProductTradePrice')
			.ele('ram:ChargeAmount')
			.txt(line.unitPrice)
		item
			.ele('ram:SpecifiedLineTradeDelivery')
			.ele('ram:BilledQuantity', { unitCode: unitCode(line.unit) })
			.txt(sign(line.quantity))
		const settlement = item.ele('ram:SpecifiedLineTradeSettlement')
		const tax = settlement.ele('ram:ApplicableTradeTax')
		add(tax, 'ram:TypeCode', 'VAT')
		category(tax, figures.categoryCode, figures.rate)
		if (figures.discount.minor !== 0) {
			const percent = line.discount?.kind === 'percent' ? line.discount.percent : null
			discount(settlement, {
				percent,
				base: percent ? amount(figures.gross) : null,
				amount: amount(figures.discount),
				reason: null,
			})
		}
		settlement
			.ele('ram:SpecifiedTradeSettlementLineMonetarySummation')
			.ele('ram:LineTotalAmount')
			.txt(amount(figures.net))
	})

	const agreement = transaction.ele('ram:ApplicableHeaderTradeAgreement')
	party(agreement, 'ram:SellerTradeParty', {
		name: profile.legalName,
		email: profile.email,
		address: profile.address,
		vatId: vatIds.seller,
		registrationId: registrationIdOf(document),
	})
	party(agreement, 'ram:BuyerTradeParty', {
		name: client.name,
		email: client.email,
		address: client.address,
		vatId: vatIds.buyer,
	})
	transaction.ele('ram:ApplicableHeaderTradeDelivery')

	const settlement = transaction.ele('ram:ApplicableHeaderTradeSettlement')
	const pays = !isCreditNote && profile.bank?.kind === 'iban'
	if (pays) {
		add(settlement, 'ram:PaymentReference', document.number)
	}
	add(settlement, 'ram:InvoiceCurrencyCode', totals.currency)
	if (pays && profile.bank?.kind === 'iban') {
		// BG-16: 58, SEPA credit transfer to the seller's account.
		const means = settlement.ele('ram:SpecifiedTradeSettlementPaymentMeans')
		add(means, 'ram:TypeCode', '58')
		const account = means.ele('ram:PayeePartyCreditorFinancialAccount')
		add(account, 'ram:IBANID', profile.bank.iban)
		add(account, 'ram:AccountName', profile.bank.accountHolder ?? profile.legalName)
		if (profile.bank.bic) {
			means.ele('ram:PayeeSpecifiedCreditorFinancialInstitution').ele('ram:BICID').txt(profile.bank.bic)
		}
	}
	// BG-23: the VAT breakdown.
	for (const group of totals.vatBreakdown) {
		const tax = settlement.ele('ram:ApplicableTradeTax')
		const exemption = exemptionOf(document, group)
		add(tax, 'ram:CalculatedAmount', amount(group.taxAmount))
		add(tax, 'ram:TypeCode', 'VAT')
		add(tax, 'ram:ExemptionReason', exemption.reason)
		add(tax, 'ram:BasisAmount', amount(group.taxableAmount))
		add(tax, 'ram:CategoryCode', group.categoryCode)
		add(tax, 'ram:ExemptionReasonCode', exemption.code)
		if (hasRate(group.categoryCode)) {
			add(tax, 'ram:RateApplicablePercent', group.rate)
		}
	}
	// BG-20: document discounts, one per VAT category and rate.
	for (const allowance of totals.allowances) {
		const node = discount(settlement, {
			percent: allowance.percent,
			base: allowance.baseAmount ? amount(allowance.baseAmount) : null,
			amount: amount(allowance.amount),
			reason: allowance.reason,
		})
		const tax = node.ele('ram:CategoryTradeTax')
		add(tax, 'ram:TypeCode', 'VAT')
		category(tax, allowance.categoryCode, allowance.rate)
	}
	if (document.paymentTerms || (document.dueDate && !isCreditNote)) {
		const terms = settlement.ele('ram:SpecifiedTradePaymentTerms')
		add(terms, 'ram:Description', document.paymentTerms)
		if (document.dueDate && !isCreditNote) {
			day(terms, 'ram:DueDateDateTime', document.dueDate)
		}
	}
	// BG-22: the totals.
	const sums = settlement.ele('ram:SpecifiedTradeSettlementHeaderMonetarySummation')
	add(sums, 'ram:LineTotalAmount', amount(totals.lineNetTotal))
	if (totals.allowances.length > 0) {
		add(sums, 'ram:AllowanceTotalAmount', amount(totals.allowanceTotal))
	}
	add(sums, 'ram:TaxBasisTotalAmount', amount(totals.taxExclusiveAmount))
	add(sums, 'ram:TaxTotalAmount', amount(totals.vatTotal), { currencyID: totals.currency })
	add(sums, 'ram:GrandTotalAmount', amount(totals.taxInclusiveAmount))
	if (totals.paidAmount.minor !== 0) {
		add(sums, 'ram:TotalPrepaidAmount', amount(totals.paidAmount))
	}
	add(sums, 'ram:DuePayableAmount', amount(totals.amountDue))
	if (document.corrects) {
		// BG-3: the invoice this credit note corrects.
		settlement.ele('ram:InvoiceReferencedDocument').ele('ram:IssuerAssignedID').txt(document.corrects)
	}
	return doc.end({ prettyPrint: true })
}
