-- Modify "audit_entries" table
ALTER TABLE `audit_entries` ADD COLUMN `actor` enum('user','admin_key') NOT NULL DEFAULT 'user';
