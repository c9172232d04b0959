package validate

import "switchyard/ent/schema/schematype"

// The closed sets of Hyperswitch's that payments, saved payment methods and
// connector accounts all check against.

// CardNetworks are Hyperswitch's CardNetwork values.
var CardNetworks = NewEnum("CardNetwork",
	"Visa", "Mastercard", "AmericanExpress", "JCB", "DinersClub", "Discover", "CartesBancaires",
	"UnionPay", "Interac", "RuPay", "Maestro", "Star", "Pulse", "Accel", "Nyce",
)

// PaymentMethodTypes are Hyperswitch's PaymentMethodType values.
var PaymentMethodTypes = NewEnum("PaymentMethodType",
	"ach", "affirm", "afterpay_clearpay", "alfamart", "ali_pay", "ali_pay_hk", "alma",
	"amazon_pay", "paysera", "apple_pay", "atome", "bacs", "bancontact_card", "becs", "benefit",
	"bizum", "blik", "bluecode", "boleto", "bca_bank_transfer", "bni_va", "breadpay", "bri_va",
	"bhn_card_network", "card_redirect", "cimb_va", "classic", "credit", "crypto_currency",
	"cashapp", "dana", "danamon_va", "debit", "duit_now", "efecty", "eft", "eft_debit_order",
	"eps", "flexiti", "fps", "evoucher", "giropay", "givex", "google_pay", "go_pay", "gcash",
	"ideal", "interac", "indomaret", "klarna", "kakao_pay", "local_bank_redirect", "mandiri_va",
	"knet", "mb_way", "mobile_pay", "momo", "momo_atm", "multibanco", "online_banking_thailand",
	"online_banking_czech_republic", "online_banking_finland", "online_banking_fpx",
	"online_banking_poland", "online_banking_slovakia", "oxxo", "pago_efectivo",
	"permata_bank_transfer", "open_banking_uk", "pay_bright", "payjustnow", "paypal", "paze",
	"pix", "pix_key", "pix_emv", "pix_qr", "pix_automatico_qr", "pix_automatico_push",
	"pay_safe_card", "przelewy24", "prompt_pay", "pse", "qris", "red_compra", "red_pagos",
	"samsung_pay", "sepa", "sepa_bank_transfer", "sepa_guarenteed_debit", "skrill", "sofort",
	"swish", "touch_n_go", "trustly", "twint", "upi_collect", "upi_intent", "upi_qr", "vipps",
	"viet_qr", "venmo", "walley", "we_chat_pay", "seven_eleven", "lawson", "mini_stop",
	"family_mart", "seicomart", "pay_easy", "local_bank_transfer", "mifinity", "open_banking_pis",
	"direct_carrier_billing", "instant_bank_transfer", "instant_bank_transfer_finland",
	"instant_bank_transfer_poland", "revolut_pay", "indonesian_bank_transfer", "open_banking",
	"network_token",
)

// Currencies is the spec's currency set (schematype.Currency) as an enum.
var Currencies = NewEnum("Currency", schematype.Currency("").Values()...)
