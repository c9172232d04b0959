-- Modify "payment_attempts" table
ALTER TABLE `payment_attempts` ADD COLUMN `routing_kind` varchar(16) NULL, ADD COLUMN `routing_rule` varchar(255) NULL;
