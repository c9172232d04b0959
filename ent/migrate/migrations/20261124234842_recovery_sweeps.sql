-- Modify "captures" table
ALTER TABLE `captures` ADD INDEX `capture_status_modified_at` (`status`, `modified_at`);
-- Modify "refunds" table
ALTER TABLE `refunds` ADD INDEX `refund_status_modified_at` (`status`, `modified_at`);
