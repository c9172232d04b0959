-- Modify "disputes" table
ALTER TABLE `disputes` ADD INDEX `dispute_merchant_id_connector_dispute_id` (`merchant_id`, `connector_dispute_id`);
