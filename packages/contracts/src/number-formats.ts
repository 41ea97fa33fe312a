// The currency of each of Notion's currency number formats (`dollar` → USD), for the table
// editor and the portal to show amounts alike. No zod here: pages that only format stay light.

export const numberFormatCurrencies: Readonly<Record<string, string>> = {
	dollar: 'USD',
	euro: 'EUR',
	pound: 'GBP',
	yen: 'JPY',
	rupee: 'INR',
	won: 'KRW',
	yuan: 'CNY',
	franc: 'CHF',
	real: 'BRL',
	ruble: 'RUB',
	rupiah: 'IDR',
	lira: 'TRY',
	krona: 'SEK',
	canadian_dollar: 'CAD',
	australian_dollar: 'AUD',
	new_zealand_dollar: 'NZD',
	singapore_dollar: 'SGD',
	hong_kong_dollar: 'HKD',
	mexican_peso: 'MXN',
	swiss_franc: 'CHF',
	norwegian_krone: 'NOK',
	danish_krone: 'DKK',
	zloty: 'PLN',
	rand: 'ZAR',
}
