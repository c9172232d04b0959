import { graphql } from "../gql";

export const ConnectorsQuery = graphql(`
  query Connectors {
    merchantAccount {
      id
      defaultProfileID
      profiles(first: 20) {
        edges {
          node {
            id
            profileID
            profileName
          }
        }
      }
    }
    connectorAccounts(first: 100, orderBy: { field: CREATED_AT, direction: ASC }) {
      edges {
        node {
          id
          merchantConnectorID
          connectorName
          connectorLabel
          connectorType
          profileID
          status
          disabled
          testMode
          metadata
          connectorAccountDetails
          paymentMethodsEnabled
        }
      }
    }
  }
`);

export const CreateConnectorAccountMutation = graphql(`
  mutation CreateConnectorAccount($input: CreateConnectorAccountInput!, $idempotencyKey: String) {
    createConnectorAccount(input: $input, idempotencyKey: $idempotencyKey) {
      connectorAccount {
        id
        merchantConnectorID
        connectorLabel
      }
    }
  }
`);

export const UpdateConnectorAccountMutation = graphql(`
  mutation UpdateConnectorAccount($id: ID!, $input: UpdateConnectorAccountInput!, $idempotencyKey: String) {
    updateConnectorAccount(id: $id, input: $input, idempotencyKey: $idempotencyKey) {
      connectorAccount {
        id
        disabled
        status
        metadata
        paymentMethodsEnabled
      }
    }
  }
`);
