-- Modify "invoices" table
ALTER TABLE `invoices` ADD COLUMN `resend_count` bigint NOT NULL DEFAULT 0;
