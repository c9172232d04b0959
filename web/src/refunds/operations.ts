import { graphql } from "../gql";

export const RefundsQuery = graphql(`
  query Refunds($first: Int, $after: Cursor, $last: Int, $before: Cursor, $where: RefundWhereInput) {
    refunds(first: $first, after: $after, last: $last, before: $before, where: $where, orderBy: [{ field: CREATED_AT, direction: DESC }]) {
      totalCount
      pageInfo {
        ...PageFields
      }
      edges {
        node {
          id
          refundID
          status
          amount
          currency
          connector
          reason
          errorCode
          errorMessage
          createdAt
          payment {
            id
            paymentID
          }
        }
      }
    }
  }
`);
