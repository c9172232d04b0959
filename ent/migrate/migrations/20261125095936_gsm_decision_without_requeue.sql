-- Modify "gsm_rules" table
ALTER TABLE `gsm_rules` MODIFY COLUMN `decision` enum('retry','do_default') NOT NULL;
