import { graphql } from "../gql";

/** A refund as the refunds list and a payment's page show it. */
export const RefundFields = graphql(`
  fragment RefundFields on Refund {
    id
    refundID
    status
    amount
    currency
    createdAt
  }
`);

export const RefundsQuery = graphql(`
  query Refunds($first: Int, $after: Cursor, $last: Int, $before: Cursor, $where: RefundWhereInput) {
    refunds(first: $first, after: $after, last: $last, before: $before, where: $where, orderBy: [{ field: CREATED_AT, direction: DESC }]) {
      totalCount
      pageInfo {
        ...PageFields
      }
      edges {
        node {
          ...RefundFields
          connector
          reason
          errorCode
          errorMessage
          payment {
            ...PaymentRefFields
          }
        }
      }
    }
  }
`);
