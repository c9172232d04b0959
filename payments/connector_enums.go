package payments

// The closed enumerations of connector accounts. The connector names, payment
// method types and card networks are Hyperswitch's (reference/hyperswitch/
// connector_names.txt, payment_method_types.txt, card_networks.txt); the
// others are the spec's; countries are the full ISO 3166-1 alpha-2 set.

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

var connectorNames = newEnum("Connector",
	"absa_sanlam", "authipay", "adyenplatform", "stripe_billing_test", "phonypay", "fauxpay",
	"pretendpay", "stripe_test", "adyen_test", "checkout_test", "paypal_test", "aci", "adyen",
	"affirm", "airwallex", "amazonpay", "archipel", "authorizedotnet", "bambora", "bamboraapac",
	"bankofamerica", "barclaycard", "billwerk", "bitpay", "bluesnap", "blackhawknetwork",
	"calida", "boku", "braintree", "breadpay", "cardinal", "cashtocode", "celero", "chargebee",
	"checkbook", "checkout", "coinbase", "coingate", "custombilling", "cryptopay",
	"ctp_mastercard", "ctp_visa", "cybersource", "cybersourcedecisionmanager", "datatrans",
	"deutschebank", "digitalvirgo", "dlocal", "dwolla", "ebanx", "envoy", "elavon", "facilitapay",
	"finix", "fiserv", "fiservemea", "fiservcommercehub", "fiuu", "flexiti", "forte", "getnet",
	"gigadat", "globalpay", "globepay", "gocardless", "gpayments", "hipay", "helcim", "hyperpg",
	"hyperswitch_vault", "interpayments", "inespay", "iatapay", "imerchantsolutions", "itaubank",
	"jpmorgan", "juspaythreedsserver", "klarna", "loonio", "mifinity", "mollie", "moneris",
	"multisafepay", "netcetera", "nexinets", "nexixpay", "nmi", "nomupay", "noon", "nordea",
	"novalnet", "nuvei", "opennode", "paybox", "payload", "payme", "payone", "paypal", "paysafe",
	"paystack", "paytm", "payconex", "payu", "peachpayments", "payjustnow", "payjustnowinstore",
	"phonepe", "placetopay", "powertranz", "prophetpay", "rapyd", "razorpay", "recurly", "redsys",
	"revolv3", "santander", "shift4", "silverflow", "square", "stax", "stripe", "stripebilling",
	"taxjar", "threedsecureio", "tesouro", "tokenex", "tokenio", "trustly", "truelayer",
	"trustpay", "trustpayments", "tsys", "vgs", "volt", "wellsfargo", "wise", "worldline",
	"worldpay", "worldpayvantiv", "worldpayxml", "worldpaymodular", "signifyd", "plaid",
	"riskified", "xendit", "zen", "zift", "zsl",
)

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

var countries = newEnum("CountryAlpha2",
	"AD", "AE", "AF", "AG", "AI", "AL", "AM", "AO", "AQ", "AR", "AS", "AT", "AU", "AW", "AX",
	"AZ", "BA", "BB", "BD", "BE", "BF", "BG", "BH", "BI", "BJ", "BL", "BM", "BN", "BO", "BQ",
	"BR", "BS", "BT", "BV", "BW", "BY", "BZ", "CA", "CC", "CD", "CF", "CG", "CH", "CI", "CK",
	"CL", "CM", "CN", "CO", "CR", "CU", "CV", "CW", "CX", "CY", "CZ", "DE", "DJ", "DK", "DM",
	"DO", "DZ", "EC", "EE", "EG", "EH", "ER", "ES", "ET", "FI", "FJ", "FK", "FM", "FO", "FR",
	"GA", "GB", "GD", "GE", "GF", "GG", "GH", "GI", "GL", "GM", "GN", "GP", "GQ", "GR", "GS",
	"GT", "GU", "GW", "GY", "HK", "HM", "HN", "HR", "HT", "HU", "ID", "IE", "IL", "IM", "IN",
	"IO", "IQ", "IR", "IS", "IT", "JE", "JM", "JO", "JP", "KE", "KG", "KH", "KI", "KM", "KN",
	"KP", "KR", "KW", "KY", "KZ", "LA", "LB", "LC", "LI", "LK", "LR", "LS", "LT", "LU", "LV",
	"LY", "MA", "MC", "MD", "ME", "MF", "MG", "MH", "MK", "ML", "MM", "MN", "MO", "MP", "MQ",
	"MR", "MS", "MT", "MU", "MV", "MW", "MX", "MY", "MZ", "NA", "NC", "NE", "NF", "NG", "NI",
	"NL", "NO", "NP", "NR", "NU", "NZ", "OM", "PA", "PE", "PF", "PG", "PH", "PK", "PL", "PM",
	"PN", "PR", "PS", "PT", "PW", "PY", "QA", "RE", "RO", "RS", "RU", "RW", "SA", "SB", "SC",
	"SD", "SE", "SG", "SH", "SI", "SJ", "SK", "SL", "SM", "SN", "SO", "SR", "SS", "ST", "SV",
	"SX", "SY", "SZ", "TC", "TD", "TF", "TG", "TH", "TJ", "TK", "TL", "TM", "TN", "TO", "TR",
	"TT", "TV", "TW", "TZ", "UA", "UG", "UM", "US", "UY", "UZ", "VA", "VC", "VE", "VG", "VI",
	"VN", "VU", "WF", "WS", "YE", "YT", "ZA", "ZM", "ZW",
)
