-- Modify "payment_methods" table
ALTER TABLE `payment_methods` ADD COLUMN `connector_token` varchar(255) NULL, ADD COLUMN `merchant_connector_id` varchar(64) NULL;
