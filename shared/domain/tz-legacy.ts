/**
 * Legacy time zone names and the canonical name each is rewritten to
 * (behaviour.md §2.4 rule 9), grouped by canonical name.
 *
 * Why a table: moment-timezone cannot tell a legacy name from a canonical one.
 * Its packed data merges zones with identical history and keeps one arbitrary
 * member as the zone, so `moment.tz.zone('Europe/Kyiv').name` is `Europe/Kyiv`
 * but the zone behind it is stored as `Europe/Kiev`, `America/Nuuk` hangs off
 * `America/Godthab`, and `Europe/Amsterdam` (a current name) is a link to
 * `Europe/Brussels` just like the legacy `CET`.
 *
 * Which names are legacy: those of tzdata's `backward` file (renamed
 * locations, `US/…`, `Canada/…`, country names, `UCT`, the `CET`/`EST5EDT`
 * style zones made links in tzdata 2024b), except `UTC`, which the reference
 * lists as a zone of its own. A name still used by zone.tab for a location
 * (e.g. `Europe/Amsterdam`, `Arctic/Longyearbyen`) is not legacy.
 *
 * Which canonical name: the link target in `backward`; where `backward`
 * notes the former location's own zone (`Iceland` #= `Atlantic/Reykjavik`,
 * `Pacific/Truk` #= `Pacific/Chuuk`), that name, so the place is kept.
 */
const LEGACY_BY_CANONICAL: Readonly<Record<string, readonly string[]>> = {
  'Africa/Asmara': ['Africa/Asmera'],
  'Africa/Bamako': ['Africa/Timbuktu'],
  'Africa/Cairo': ['Egypt'],
  'Africa/Tripoli': ['Libya'],
  'America/Adak': ['America/Atka', 'US/Aleutian'],
  'America/Anchorage': ['US/Alaska'],
  'America/Argentina/Buenos_Aires': ['America/Buenos_Aires'],
  'America/Argentina/Catamarca': ['America/Argentina/ComodRivadavia', 'America/Catamarca'],
  'America/Argentina/Cordoba': ['America/Cordoba', 'America/Rosario'],
  'America/Argentina/Jujuy': ['America/Jujuy'],
  'America/Argentina/Mendoza': ['America/Mendoza'],
  'America/Atikokan': ['America/Coral_Harbour'],
  'America/Chicago': ['CST6CDT', 'US/Central'],
  'America/Denver': ['America/Shiprock', 'MST7MDT', 'Navajo', 'US/Mountain'],
  'America/Detroit': ['US/Michigan'],
  'America/Edmonton': ['America/Yellowknife', 'Canada/Mountain'],
  'America/Halifax': ['Canada/Atlantic'],
  'America/Havana': ['Cuba'],
  'America/Indiana/Indianapolis': ['America/Fort_Wayne', 'America/Indianapolis', 'US/East-Indiana'],
  'America/Indiana/Knox': ['America/Knox_IN', 'US/Indiana-Starke'],
  'America/Iqaluit': ['America/Pangnirtung'],
  'America/Jamaica': ['Jamaica'],
  'America/Kentucky/Louisville': ['America/Louisville'],
  'America/Los_Angeles': ['PST8PDT', 'US/Pacific'],
  'America/Manaus': ['Brazil/West'],
  'America/Mazatlan': ['Mexico/BajaSur'],
  'America/Mexico_City': ['Mexico/General'],
  'America/New_York': ['EST5EDT', 'US/Eastern'],
  'America/Noronha': ['Brazil/DeNoronha'],
  'America/Nuuk': ['America/Godthab'],
  'America/Panama': ['EST'],
  'America/Phoenix': ['MST', 'US/Arizona'],
  'America/Regina': ['Canada/Saskatchewan'],
  'America/Rio_Branco': ['America/Porto_Acre', 'Brazil/Acre'],
  'America/Santiago': ['Chile/Continental'],
  'America/Sao_Paulo': ['Brazil/East'],
  'America/St_Johns': ['Canada/Newfoundland'],
  'America/St_Thomas': ['America/Virgin'],
  'America/Tijuana': ['America/Ensenada', 'America/Santa_Isabel', 'Mexico/BajaNorte'],
  'America/Toronto': ['America/Montreal', 'America/Nipigon', 'America/Thunder_Bay', 'Canada/Eastern'],
  'America/Vancouver': ['Canada/Pacific'],
  'America/Whitehorse': ['Canada/Yukon'],
  'America/Winnipeg': ['America/Rainy_River', 'Canada/Central'],
  'Antarctica/McMurdo': ['Antarctica/South_Pole'],
  'Arctic/Longyearbyen': ['Atlantic/Jan_Mayen'],
  'Asia/Ashgabat': ['Asia/Ashkhabad'],
  'Asia/Dhaka': ['Asia/Dacca'],
  'Asia/Ho_Chi_Minh': ['Asia/Saigon'],
  'Asia/Hong_Kong': ['Hongkong'],
  'Asia/Jerusalem': ['Asia/Tel_Aviv', 'Israel'],
  'Asia/Kathmandu': ['Asia/Katmandu'],
  'Asia/Kolkata': ['Asia/Calcutta'],
  'Asia/Macau': ['Asia/Macao'],
  'Asia/Makassar': ['Asia/Ujung_Pandang'],
  'Asia/Nicosia': ['Europe/Nicosia'],
  'Asia/Seoul': ['ROK'],
  'Asia/Shanghai': ['Asia/Chongqing', 'Asia/Chungking', 'Asia/Harbin', 'PRC'],
  'Asia/Singapore': ['Singapore'],
  'Asia/Taipei': ['ROC'],
  'Asia/Tehran': ['Iran'],
  'Asia/Thimphu': ['Asia/Thimbu'],
  'Asia/Tokyo': ['Japan'],
  'Asia/Ulaanbaatar': ['Asia/Choibalsan', 'Asia/Ulan_Bator'],
  'Asia/Urumqi': ['Asia/Kashgar'],
  'Asia/Yangon': ['Asia/Rangoon'],
  'Atlantic/Faroe': ['Atlantic/Faeroe'],
  'Atlantic/Reykjavik': ['Iceland'],
  'Australia/Adelaide': ['Australia/South'],
  'Australia/Brisbane': ['Australia/Queensland'],
  'Australia/Broken_Hill': ['Australia/Yancowinna'],
  'Australia/Darwin': ['Australia/North'],
  'Australia/Hobart': ['Australia/Currie', 'Australia/Tasmania'],
  'Australia/Lord_Howe': ['Australia/LHI'],
  'Australia/Melbourne': ['Australia/Victoria'],
  'Australia/Perth': ['Australia/West'],
  'Australia/Sydney': ['Australia/ACT', 'Australia/Canberra', 'Australia/NSW'],
  'Etc/GMT': ['Etc/GMT+0', 'Etc/GMT-0', 'Etc/GMT0', 'Etc/Greenwich', 'GMT+0', 'GMT-0', 'GMT0', 'Greenwich'],
  'Etc/UTC': ['Etc/UCT', 'Etc/Universal', 'Etc/Zulu', 'UCT', 'Universal', 'Zulu'],
  'Europe/Athens': ['EET'],
  'Europe/Brussels': ['CET', 'MET'],
  'Europe/Chisinau': ['Europe/Tiraspol'],
  'Europe/Dublin': ['Eire'],
  'Europe/Istanbul': ['Asia/Istanbul', 'Turkey'],
  'Europe/Kyiv': ['Europe/Kiev', 'Europe/Uzhgorod', 'Europe/Zaporozhye'],
  'Europe/Lisbon': ['Portugal', 'WET'],
  'Europe/London': ['Europe/Belfast', 'GB', 'GB-Eire'],
  'Europe/Moscow': ['W-SU'],
  'Europe/Warsaw': ['Poland'],
  'Pacific/Auckland': ['NZ'],
  'Pacific/Chatham': ['NZ-CHAT'],
  'Pacific/Chuuk': ['Pacific/Truk', 'Pacific/Yap'],
  'Pacific/Easter': ['Chile/EasterIsland'],
  'Pacific/Honolulu': ['HST', 'Pacific/Johnston', 'US/Hawaii'],
  'Pacific/Kanton': ['Pacific/Enderbury'],
  'Pacific/Kwajalein': ['Kwajalein'],
  'Pacific/Pago_Pago': ['Pacific/Samoa', 'US/Samoa'],
  'Pacific/Pohnpei': ['Pacific/Ponape'],
};

/** Legacy name → canonical name. */
export const LEGACY_TIME_ZONES: ReadonlyMap<string, string> = new Map(
  Object.entries(LEGACY_BY_CANONICAL).flatMap(([canonical, legacy]) => legacy.map((name) => [name, canonical] as const)),
);
