-- Modify "payment_attempts" table
ALTER TABLE `payment_attempts` ADD COLUMN `routing_approach` varchar(32) NULL, ADD COLUMN `routing_algorithm_id` varchar(64) NULL, ADD COLUMN `routing_candidates` json NULL;
