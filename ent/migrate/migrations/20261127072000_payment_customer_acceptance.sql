-- Modify "payment_intents" table
ALTER TABLE `payment_intents` ADD COLUMN `customer_acceptance` json NULL;
