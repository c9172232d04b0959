-- Modify "payment_attempts" table
ALTER TABLE `payment_attempts` ADD INDEX `paymentattempt_status_modified_at` (`status`, `modified_at`);
-- Modify "payment_intents" table
ALTER TABLE `payment_intents` ADD COLUMN `idempotency_key` varchar(255) NULL, ADD COLUMN `idempotency_fingerprint` varchar(64) NULL, ADD UNIQUE INDEX `paymentintent_merchant_id_idempotency_key` (`merchant_id`, `idempotency_key`);
