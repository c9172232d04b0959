-- Create "organizations" table
CREATE TABLE `organizations` (`id` varchar(64) NOT NULL, `created_at` datetime(6) NOT NULL, `modified_at` datetime(6) NOT NULL, `organization_name` varchar(255) NULL, `organization_details` json NULL, `metadata` json NULL, PRIMARY KEY (`id`)) CHARSET utf8mb4 COLLATE utf8mb4_bin;
-- Every organization existing merchant accounts name, so none dangles
INSERT INTO `organizations` (`id`, `created_at`, `modified_at`) SELECT DISTINCT `organization_id`, UTC_TIMESTAMP(6), UTC_TIMESTAMP(6) FROM `merchant_accounts` WHERE `organization_id` IS NOT NULL AND `organization_id` <> '';
