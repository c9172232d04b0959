-- Modify "payment_intents" table
ALTER TABLE `payment_intents` MODIFY COLUMN `statement_descriptor` varchar(255) NULL, MODIFY COLUMN `statement_descriptor_suffix` varchar(255) NULL;
