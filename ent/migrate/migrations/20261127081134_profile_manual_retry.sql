-- Modify "profiles" table
ALTER TABLE `profiles` ADD COLUMN `is_manual_retry_enabled` bool NULL;
