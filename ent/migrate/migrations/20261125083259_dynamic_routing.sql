-- Modify "profiles" table
ALTER TABLE `profiles` ADD COLUMN `dynamic_routing` json NULL;
-- Modify "routing_algorithms" table
ALTER TABLE `routing_algorithms` MODIFY COLUMN `kind` enum('single','priority','volume_split','advanced','dynamic') NOT NULL;
