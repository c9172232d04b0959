-- Modify "customers" table
ALTER TABLE `customers` ADD INDEX `customer_merchant_id_email` (`merchant_id`, `email`);
-- Modify "merchant_accounts" table
ALTER TABLE `merchant_accounts` ADD COLUMN `time_zone` varchar(64) NOT NULL DEFAULT 'UTC';
