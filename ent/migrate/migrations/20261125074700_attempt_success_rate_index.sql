-- Modify "payment_attempts" table
ALTER TABLE `payment_attempts` ADD INDEX `paymentattempt_merchant_id_crea_e648c9a8fdb9d1de3c6fa2497260e925` (`merchant_id`, `created_at`, `merchant_connector_id`, `status`);
