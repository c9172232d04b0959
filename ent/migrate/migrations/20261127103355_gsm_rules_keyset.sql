-- Modify "gsm_rules" table
ALTER TABLE `gsm_rules` ADD INDEX `gsmrule_merchant_id_created_at_id` (`merchant_id`, `created_at`, `id`);
