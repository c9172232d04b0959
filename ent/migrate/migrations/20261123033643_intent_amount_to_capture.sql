-- Modify "payment_intents" table
ALTER TABLE `payment_intents` ADD COLUMN `amount_to_capture` bigint NULL;
