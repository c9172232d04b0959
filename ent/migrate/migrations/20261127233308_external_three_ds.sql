-- Modify "payment_attempts" table
ALTER TABLE `payment_attempts` ADD COLUMN `external_three_ds_status` enum('started','pending','success','failed') NULL, ADD COLUMN `external_three_ds_flow` enum('frictionless','challenge') NULL, ADD COLUMN `external_three_ds_trans_status` varchar(1) NULL, ADD COLUMN `external_three_ds_eci` varchar(8) NULL, ADD COLUMN `external_three_ds_ds_trans_id` varchar(64) NULL, ADD COLUMN `external_three_ds_version` varchar(16) NULL, ADD COLUMN `external_three_ds_error_code` varchar(64) NULL, ADD COLUMN `external_three_ds_error_message` varchar(255) NULL;
-- Modify "payment_intents" table
ALTER TABLE `payment_intents` ADD COLUMN `three_ds_data_sealed` blob NULL;
