-- Modify "customers" table
ALTER TABLE `customers` MODIFY COLUMN `phone_country_code` varchar(255) NULL, ADD COLUMN `tax_registration_id` varchar(255) NULL, ADD COLUMN `document_details` json NULL, ADD COLUMN `redacted_at` timestamp NULL;
