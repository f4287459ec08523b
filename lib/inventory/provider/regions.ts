/*
 * Regions from countries (Webex has no region: vendors.md). The default groups the continents
 * the way fleet teams usually do: North America (Americas), Latin America and the Caribbean
 * (LATAM), Europe, the Middle East and Africa (EMEA), Asia and Oceania (APAC). A map given in
 * configuration (JSON `{"US": "North America", ...}`) wins for the countries it names.
 */
const GROUPS: Record<string, string> = {
  Americas: 'US CA GL BM PM UM',
  LATAM:
    'MX GT BZ SV HN NI CR PA CU DO HT JM PR TT BS BB AG DM GD KN LC VC AW CW SX BQ KY TC VG VI AI MS MQ GP BL MF ' +
    'AR BO BR CL CO EC GY PY PE SR UY VE FK GF',
  EMEA:
    'GB IE FR DE ES PT IT NL BE LU CH AT LI MC SM VA AD MT DK NO SE FI IS FO AX PL CZ SK HU SI HR BA RS ME MK AL XK ' +
    'GR BG RO MD UA BY LT LV EE RU CY TR GE AM AZ GI IM JE GG SJ ' +
    'IL PS JO LB SY IQ IR KW SA BH QA AE OM YE ' +
    'EG LY TN DZ MA EH SD SS ET ER DJ SO KE UG TZ RW BI CD CG GA GQ CM CF TD NE NG BJ TG GH CI LR SL GN GW SN GM ML BF MR CV ST ' +
    'AO ZM ZW MW MZ NA BW ZA LS SZ MG MU SC KM RE YT SH',
  APAC:
    'CN HK MO TW JP KR KP MN IN PK BD LK NP BT MV AF KZ KG TJ TM UZ MM TH LA KH VN MY SG ID BN PH TL ' +
    'AU NZ PG FJ SB VU NC PF WS TO KI TV NR FM MH PW GU MP AS CK NU TK WF NF CX CC IO',
};

export const DEFAULT_REGIONS: ReadonlyMap<string, string> = new Map(
  Object.entries(GROUPS).flatMap(([region, codes]) => codes.split(' ').map((code) => [code, region] as const)),
);

/** The region of a location with no country, or with one no map names. */
export const UNKNOWN_REGION = 'Unknown';

/** Parses a JSON object of strings (a configured map); throws naming the setting when it is not one. */
export const parseNameMap = (setting: string, json: string | undefined): Map<string, string> => {
  if (json === undefined || json.trim() === '') return new Map();
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new Error(`${setting} must be a JSON object of names, e.g. {"US": "North America"}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.values(value).every((v) => typeof v === 'string' && v !== '')) {
    throw new Error(`${setting} must be a JSON object of non-empty strings`);
  }
  return new Map(Object.entries(value as Record<string, string>));
};

/** The region of an ISO 3166-1 alpha-2 country code: the configured map, else the default grouping. */
export const regionOfCountry = (configured: ReadonlyMap<string, string>, countryCode: string | undefined): string => {
  if (!countryCode) return UNKNOWN_REGION;
  const code = countryCode.toUpperCase();
  return configured.get(code) ?? DEFAULT_REGIONS.get(code) ?? UNKNOWN_REGION;
};
