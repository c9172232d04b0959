-- Modify "payment_attempts" table
ALTER TABLE `payment_attempts` ADD COLUMN `extended_authorization_applied` bool NULL, ADD COLUMN `extended_authorization_last_applied_at` datetime(6) NULL;
