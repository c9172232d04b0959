import { graphql } from "../gql";

/** A connector account as the connectors page and the routing page name it. */
export const ConnectorAccountFields = graphql(`
  fragment ConnectorAccountFields on MerchantConnectorAccount {
    id
    merchantConnectorID
    connectorName
    connectorLabel
    connectorType
    profileID
    disabled
  }
`);

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
          ...ConnectorAccountFields
          status
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
        ...ConnectorAccountFields
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
