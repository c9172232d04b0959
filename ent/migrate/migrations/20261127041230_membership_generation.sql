-- Modify "memberships" table
ALTER TABLE `memberships` ADD COLUMN `generation` bigint NOT NULL DEFAULT 0;
