-- Modify "events" table
ALTER TABLE `events` ADD INDEX `event_merchant_id_profile_id_created_at_id` (`merchant_id`, `profile_id`, `created_at`, `id`);
