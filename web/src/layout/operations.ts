import { graphql } from "../gql";

/** The merchant's business profiles, for the profile picker. */
export const ProfilesQuery = graphql(`
  query Profiles {
    merchantAccount {
      id
      defaultProfileID
      profiles(first: 100, orderBy: { field: CREATED_AT, direction: ASC }) {
        edges {
          node {
            id
            profileID
            profileName
            isDefault
          }
        }
      }
    }
  }
`);
