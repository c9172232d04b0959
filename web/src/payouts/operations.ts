import { graphql } from "../gql";

/** A payout as a row of the payouts list. */
export const PayoutRowFields = graphql(`
  fragment PayoutRowFields on Payout {
    id
    payoutID
    status
    amount
    currency
    payoutType
    connector
    customerID
    errorCode
    errorMessage
    createdAt
  }
`);

/** What fulfilling or cancelling changes on a payout. */
export const PayoutStateFields = graphql(`
  fragment PayoutStateFields on Payout {
    id
    status
  }
`);

export const PayoutsQuery = graphql(`
  query Payouts($first: Int, $after: Cursor, $last: Int, $before: Cursor, $where: PayoutWhereInput) {
    payouts(first: $first, after: $after, last: $last, before: $before, where: $where, orderBy: [{ field: CREATED_AT, direction: DESC }]) {
      totalCount
      pageInfo {
        ...PageFields
      }
      edges {
        node {
          ...PayoutRowFields
        }
      }
    }
  }
`);

export const PayoutQuery = graphql(`
  query Payout($id: ID!) {
    payout(id: $id) {
      ...PayoutRowFields
      payoutMethodType
      payoutMethodData
      description
      merchantOrderReferenceID
      autoFulfill
      priority
      connectorTransactionID
      unifiedCode
      unifiedMessage
      modifiedAt
      attempts(first: 20, orderBy: { field: CREATED_AT, direction: ASC }) {
        totalCount
        edges {
          node {
            id
            payoutAttemptID
            status
            amount
            currency
            connector
            errorCode
            errorMessage
            cancellationReason
            createdAt
          }
        }
      }
      events(first: 50, orderBy: [{ field: CREATED_AT, direction: ASC }]) {
        totalCount
        edges {
          node {
            ...LoggedEventFields
          }
        }
      }
    }
  }
`);

export const FulfillPayoutMutation = graphql(`
  mutation FulfillPayout($id: ID!, $idempotencyKey: String) {
    fulfillPayout(id: $id, idempotencyKey: $idempotencyKey) {
      payout {
        ...PayoutStateFields
      }
    }
  }
`);

export const CancelPayoutMutation = graphql(`
  mutation CancelPayout($id: ID!, $idempotencyKey: String) {
    cancelPayout(id: $id, idempotencyKey: $idempotencyKey) {
      payout {
        ...PayoutStateFields
      }
    }
  }
`);
