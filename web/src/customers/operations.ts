import { graphql } from "../gql";

export const CustomersQuery = graphql(`
  query Customers($first: Int, $after: Cursor, $last: Int, $before: Cursor, $where: CustomerWhereInput) {
    customers(first: $first, after: $after, last: $last, before: $before, where: $where, orderBy: [{ field: CREATED_AT, direction: DESC }]) {
      totalCount
      pageInfo {
        ...PageFields
      }
      edges {
        node {
          id
          customerID
          name
          email
          phone
          createdAt
        }
      }
    }
  }
`);

export const CustomerQuery = graphql(`
  query Customer($customerID: String!) {
    customers(first: 1, where: { customerID: $customerID }) {
      edges {
        node {
          id
          customerID
          name
          email
          phone
          phoneCountryCode
          description
          defaultPaymentMethodID
          createdAt
          paymentMethods {
            id
            paymentMethodID
            paymentMethod
            paymentMethodType
            status
            recurringEnabled
            lastUsedAt
            createdAt
            card {
              last4
              cardNetwork
              cardType
              expMonth
              expYear
              holderName
            }
          }
          mandates {
            id
            mandateID
            status
            mandateType
            amount
            currency
            connector
            originalPaymentID
            paymentMethodID
            createdAt
          }
          payments(first: 50, orderBy: [{ field: CREATED_AT, direction: DESC }]) {
            totalCount
            edges {
              node {
                ...PaymentRowFields
              }
            }
          }
        }
      }
    }
  }
`);
