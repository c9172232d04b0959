-- Modify "payment_intents" table
ALTER TABLE `payment_intents` ADD COLUMN `customer_details` json NULL;
