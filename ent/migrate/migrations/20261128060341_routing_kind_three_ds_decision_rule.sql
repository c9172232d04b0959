-- Modify "routing_algorithms" table
ALTER TABLE `routing_algorithms` MODIFY COLUMN `kind` enum('single','priority','volume_split','advanced','dynamic','three_ds_decision_rule') NOT NULL;
