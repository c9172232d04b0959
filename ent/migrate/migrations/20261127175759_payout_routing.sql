-- Modify "profiles" table
ALTER TABLE `profiles` ADD COLUMN `payout_routing_algorithm_id` varchar(64) NULL;
