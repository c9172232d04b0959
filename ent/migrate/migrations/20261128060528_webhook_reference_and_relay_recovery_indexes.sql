-- Modify "payment_attempts" table
ALTER TABLE `payment_attempts` ADD INDEX `paymentattempt_merchant_id_connector_transaction_id` (`merchant_id`, `connector_transaction_id`);
-- Modify "payout_attempts" table
ALTER TABLE `payout_attempts` ADD INDEX `payoutattempt_merchant_id_connector_transaction_id` (`merchant_id`, `connector_transaction_id`);
-- Modify "refunds" table
ALTER TABLE `refunds` ADD INDEX `refund_merchant_id_connector_refund_id` (`merchant_id`, `connector_refund_id`);
-- Modify "relays" table
ALTER TABLE `relays` ADD INDEX `relay_status_modified_at` (`status`, `modified_at`);
