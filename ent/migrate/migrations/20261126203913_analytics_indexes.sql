-- Modify "disputes" table
ALTER TABLE `disputes` ADD INDEX `dispute_analytics` (`merchant_id`, `created_at`, `profile_id`, `dispute_status`);
-- Modify "payment_intents" table
ALTER TABLE `payment_intents` ADD INDEX `paymentintent_analytics` (`merchant_id`, `created_at`, `profile_id`, `status`, `connector`, `payment_method`, `currency`, `amount`);
-- Modify "refunds" table
ALTER TABLE `refunds` ADD INDEX `refund_analytics` (`merchant_id`, `created_at`, `profile_id`, `status`, `currency`, `amount`);
