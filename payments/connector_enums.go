package payments

import "switchyard/payments/connector"

// The closed enumerations of connector accounts. The connector names are
// payments/connector's; the payment method types and card networks are
// Hyperswitch's (reference/hyperswitch/payment_method_types.txt,
// card_networks.txt); the others are the spec's. Countries are in enums.go.

// connectorTypes are the spec's 13 ConnectorType values (Hyperswitch's
// OpenAPI has a 14th, surcharge_processor, which the spec leaves out).
var connectorTypes = newEnum("ConnectorType",
	"payment_processor", "payment_vas", "fin_operations", "fiz_operations", "networks",
	"banking_entities", "non_banking_finance", "payout_processor", "payment_method_auth",
	"authentication_processor", "tax_processor", "billing_processor", "vault_processor")

var connectorStatuses = newEnum("ConnectorStatus", "inactive", "active")

var paymentMethods = newEnum("PaymentMethod",
	"card", "card_redirect", "pay_later", "wallet", "bank_redirect", "bank_transfer", "crypto",
	"bank_debit", "reward", "real_time_payment", "upi", "voucher", "gift_card", "open_banking",
	"mobile_payment", "network_token")

var paymentExperiences = newEnum("PaymentExperience",
	"redirect_to_url", "invoke_sdk_client", "display_qr_code", "one_click", "link_wallet",
	"invoke_payment_app", "display_wait_screen", "collect_otp")

var frmFlows = newEnum("FrmPreferredFlowTypes", "pre", "post")

var frmActions = newEnum("FrmAction", "cancel_txn", "auto_refund", "manual_review")

var acceptedTypes = newEnum("type", "enable_only", "disable_only", "all_accepted")

var cardNetworks = newEnum("CardNetwork",
	"Visa", "Mastercard", "AmericanExpress", "JCB", "DinersClub", "Discover", "CartesBancaires",
	"UnionPay", "Interac", "RuPay", "Maestro", "Star", "Pulse", "Accel", "Nyce",
)

// connectorNames are the connector_name values: payments/connector's list
// (connector.Names), the one copy of Hyperswitch's connector_names.txt.
var connectorNames = newEnum("Connector", connector.Names()...)

var paymentMethodTypes = newEnum("PaymentMethodType",
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
