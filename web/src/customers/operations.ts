import { graphql } from "../gql";

/** A customer as the customers list and the customer's page name it. */
export const CustomerFields = graphql(`
  fragment CustomerFields on Customer {
    id
    customerID
    name
    email
    phone
    createdAt
  }
`);

export const CustomersQuery = graphql(`
  query Customers($first: Int, $after: Cursor, $last: Int, $before: Cursor, $where: CustomerWhereInput) {
    customers(first: $first, after: $after, last: $last, before: $before, where: $where, orderBy: [{ field: CREATED_AT, direction: DESC }]) {
      totalCount
      pageInfo {
        ...PageFields
      }
      edges {
        node {
          ...CustomerFields
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
          ...CustomerFields
          phoneCountryCode
          description
          defaultPaymentMethodID
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
