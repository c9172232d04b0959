package connector

import (
	"switchyard/payments/validate"
)

// The closed enumerations of connector accounts. The connector names are
// payments/connector's; the others are the spec's. Countries, card networks, payment method types and currencies
// are payments/validate's.

// connectorTypes are the spec's 13 ConnectorType values (Hyperswitch's
// OpenAPI has a 14th, surcharge_processor, which the spec leaves out).
var connectorTypes = validate.NewEnum("ConnectorType",
	"payment_processor", "payment_vas", "fin_operations", "fiz_operations", "networks",
	"banking_entities", "non_banking_finance", "payout_processor", "payment_method_auth",
	"authentication_processor", "tax_processor", "billing_processor", "vault_processor")

var connectorStatuses = validate.NewEnum("ConnectorStatus", "inactive", "active")

var paymentMethods = validate.NewEnum("PaymentMethod",
	"card", "card_redirect", "pay_later", "wallet", "bank_redirect", "bank_transfer", "crypto",
	"bank_debit", "reward", "real_time_payment", "upi", "voucher", "gift_card", "open_banking",
	"mobile_payment", "network_token")

var paymentExperiences = validate.NewEnum("PaymentExperience",
	"redirect_to_url", "invoke_sdk_client", "display_qr_code", "one_click", "link_wallet",
	"invoke_payment_app", "display_wait_screen", "collect_otp")

var frmFlows = validate.NewEnum("FrmPreferredFlowTypes", "pre", "post")

var frmActions = validate.NewEnum("FrmAction", "cancel_txn", "auto_refund", "manual_review")

var acceptedTypes = validate.NewEnum("type", "enable_only", "disable_only", "all_accepted")

// KnownNames are the connector_name values as a closed set: payments/connector's list
// (connector.Names), the one copy of Hyperswitch's connector_names.txt.
var KnownNames = validate.NewEnum("Connector", Names()...)
