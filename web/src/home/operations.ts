import { graphql } from "../gql";

export const HomeQuery = graphql(`
  query Home($range: AnalyticsRange!) {
    paymentAnalytics(range: $range, groupBy: STATUS) {
      bucketStart
      key
      currency
      count
      volume
    }
    connectorSuccessRateSeries(range: $range) {
      merchantConnectorID
      connector
      bucketStart
      succeeded
      failed
    }
    refundAnalytics(range: $range) {
      bucketStart
      status
      currency
      count
      volume
    }
    disputeAnalytics(range: $range) {
      bucketStart
      status
      count
    }
  }
`);
