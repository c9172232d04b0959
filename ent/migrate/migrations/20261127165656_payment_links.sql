-- Modify "payment_intents" table
ALTER TABLE `payment_intents` ADD COLUMN `payment_link_id` varchar(64) NULL, ADD COLUMN `payment_link` json NULL, ADD UNIQUE INDEX `paymentintent_merchant_id_payment_link_id` (`merchant_id`, `payment_link_id`);
-- Modify "profiles" table
ALTER TABLE `profiles` ADD COLUMN `payment_link_config` json NULL;
