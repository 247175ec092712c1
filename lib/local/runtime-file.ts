/** Written by `npm start` into the data folder so operator commands reach the running DynamoDB Local. */
export const RUNTIME_FILE = 'runtime.json';

export interface RuntimeInfo {
  pid: number;
  baseUrl: string;
  dynamoEndpoint: string;
  tableName: string;
}
