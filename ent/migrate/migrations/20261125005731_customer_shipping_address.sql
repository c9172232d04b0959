-- Modify "customers" table
ALTER TABLE `customers` ADD COLUMN `shipping_address` json NULL;
