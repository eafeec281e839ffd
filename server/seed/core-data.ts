/** The demo operator's reference data: real Bangladeshi cities, counters and roads. */

export const cities: { code: string; name: string; nameBn: string }[] = [
  { code: 'DHK', name: 'Dhaka', nameBn: 'ঢাকা' },
  { code: 'CTG', name: 'Chattogram', nameBn: 'চট্টগ্রাম' },
  { code: 'SYL', name: 'Sylhet', nameBn: 'সিলেট' },
  { code: 'CXB', name: "Cox's Bazar", nameBn: 'কক্সবাজার' },
  { code: 'KHL', name: 'Khulna', nameBn: 'খুলনা' },
  { code: 'RAJ', name: 'Rajshahi', nameBn: 'রাজশাহী' },
  { code: 'BSL', name: 'Barishal', nameBn: 'বরিশাল' },
  { code: 'RNG', name: 'Rangpur', nameBn: 'রংপুর' },
  { code: 'MYM', name: 'Mymensingh', nameBn: 'ময়মনসিংহ' },
  { code: 'CML', name: 'Cumilla', nameBn: 'কুমিল্লা' },
  { code: 'BOG', name: 'Bogura', nameBn: 'বগুড়া' },
  { code: 'JSR', name: 'Jashore', nameBn: 'যশোর' },
  { code: 'DNJ', name: 'Dinajpur', nameBn: 'দিনাজপুর' },
  { code: 'KUS', name: 'Kushtia', nameBn: 'কুষ্টিয়া' },
];

/**
 * Counters per city, first the main terminal. offset_minutes: a coach passes the
 * city's counters in this order, so later counters board and drop later.
 */
export const stations: Record<string, [name: string, address: string][]> = {
  DHK: [
    ['Kalabagan', '62/1 Mirpur Road, Kalabagan, Dhaka 1205'],
    ['Gabtoli', 'Gabtoli Inter-district Bus Terminal, Mirpur, Dhaka 1216'],
    ['Sayedabad', 'Sayedabad Bus Terminal, Jatrabari, Dhaka 1204'],
    ['Mohakhali', 'Mohakhali Bus Terminal, Tejgaon, Dhaka 1212'],
  ],
  CTG: [
    ['Dampara', 'Dampara Bus Counter, Kazir Dewri, Chattogram 4000'],
    ['GEC Circle', 'CDA Avenue, GEC Circle, Chattogram 4100'],
    ['AK Khan Mor', 'Dhaka Trunk Road, AK Khan, Pahartali, Chattogram 4202'],
  ],
  SYL: [
    ['Kadamtali', 'Kadamtali Central Bus Terminal, Sylhet 3100'],
    ['Humayun Rashid Chattar', 'Humayun Rashid Chattar, Sylhet 3100'],
    ['Subhanighat', 'Subhanighat Point, Sylhet 3100'],
  ],
  CXB: [
    ['Kolatoli', 'Kolatoli Road, Hotel-Motel Zone, Cox\'s Bazar 4700'],
    ['Central Bus Terminal', 'Link Road, Cox\'s Bazar Central Bus Terminal, Cox\'s Bazar 4700'],
  ],
  KHL: [
    ['Sonadanga', 'Sonadanga Bus Terminal, Khulna 9100'],
    ['Royal Mor', 'KDA Avenue, Royal Mor, Khulna 9100'],
    ['Fulbari Gate', 'Khulna-Jashore Road, Fulbari Gate, Khulna 9203'],
  ],
  RAJ: [
    ['Shiroil', 'Shiroil Bus Terminal, Rajshahi 6100'],
    ['Bhadra Mor', 'Bhadra Mor, Rajshahi 6100'],
    ['Naodapara', 'Naodapara Bus Terminal, Rajshahi 6203'],
  ],
  BSL: [
    ['Nathullabad', 'Nathullabad Central Bus Terminal, Barishal 8200'],
    ['Rupatoli', 'Rupatoli Bus Terminal, Barishal 8207'],
  ],
  RNG: [
    ['Terminal', 'Rangpur Central Bus Terminal, Rangpur 5400'],
    ['Modern Mor', 'Modern Mor, Rangpur 5400'],
    ['Dhap', 'Jail Road, Dhap, Rangpur 5400'],
  ],
  MYM: [
    ['Masakanda', 'Masakanda Bus Terminal, Mymensingh 2200'],
    ['Patgudam', 'Patgudam Bridge Mor, Mymensingh 2200'],
  ],
  CML: [
    ['Kandirpar', 'Kandirpar, Cumilla 3500'],
    ['Padua Bazar', 'Padua Bazar Bishwa Road, Cumilla 3500'],
    ['Tomsom Bridge', 'Tomsom Bridge Bus Stand, Cumilla 3500'],
  ],
  BOG: [
    ['Satmatha', 'Satmatha, Bogura 5800'],
    ['Thanthania', 'Thanthania Bus Terminal, Bogura 5800'],
    ['Charmatha', 'Charmatha Bus Stand, Bogura 5800'],
  ],
  JSR: [
    ['Monihar', 'Monihar Cinema Hall Mor, Jashore 7400'],
    ['Chanchra Mor', 'Chanchra Mor, Jashore 7400'],
  ],
  DNJ: [
    ['Central Bus Terminal', 'Dinajpur Central Bus Terminal, Dinajpur 5200'],
    ['Lilir Mor', 'Lilir Mor, Dinajpur 5200'],
  ],
  KUS: [
    ['Majampur', 'Majampur Bus Terminal, Kushtia 7000'],
    ['Chourhas Mor', 'Chourhas Mor, Kushtia 7000'],
  ],
};

export const stationOffsets = [0, 15, 30, 45];

/** Two-way roads: [a, b, km, minutes]. */
export const roads: [string, string, number, number][] = [
  ['DHK', 'CTG', 250, 330],
  ['DHK', 'SYL', 240, 300],
  ['DHK', 'CXB', 400, 600],
  ['DHK', 'KHL', 230, 270],
  ['DHK', 'RAJ', 250, 330],
  ['DHK', 'BSL', 180, 240],
  ['DHK', 'RNG', 300, 420],
  ['DHK', 'MYM', 120, 180],
  ['DHK', 'CML', 100, 150],
  ['DHK', 'BOG', 200, 270],
  ['DHK', 'JSR', 200, 240],
  ['DHK', 'DNJ', 330, 480],
  ['DHK', 'KUS', 190, 300],
  ['CTG', 'CXB', 150, 240],
  ['CTG', 'SYL', 330, 420],
  ['KHL', 'JSR', 60, 90],
  ['RAJ', 'BOG', 110, 150],
];

export type LayoutKey = 'AC_STANDARD' | 'NON_AC' | 'AC_BUSINESS' | 'SLEEPER';

/** Taka per km by seat type, per coach type (rounded to 10 Tk, at least 200 Tk). */
export const farePerKm: Record<LayoutKey, Record<string, number>> = {
  AC_STANDARD: { Standard: 3.2 },
  NON_AC: { Standard: 2.2 },
  AC_BUSINESS: { Business: 4.8, Extra: 5.6 },
  SLEEPER: { Sleeper: 8, 'Sleeper Horizontal': 8.8 },
};

/** Daily departures (Asia/Dhaka) on roads touching Dhaka, and on the others. */
export const dhakaDepartures: [time: string, layout: LayoutKey][] = [
  ['06:30', 'AC_STANDARD'],
  ['09:00', 'AC_BUSINESS'],
  ['13:30', 'NON_AC'],
  ['17:00', 'AC_STANDARD'],
  ['22:30', 'SLEEPER'],
];
export const otherDepartures: [time: string, layout: LayoutKey][] = [
  ['08:00', 'AC_STANDARD'],
  ['15:30', 'NON_AC'],
];

export const timePeriods = [
  { label: 'Morning', value: '04:00AM-11:59AM', integerValue: 1 },
  { label: 'Afternoon', value: '12:00PM-05:59PM', integerValue: 2 },
  { label: 'Evening/Night', value: '06:00PM-11:59PM', integerValue: 3 },
];

export const announcements = [
  {
    title: 'Tickets for the Eid journeys go on sale 10 days before the travel date.',
    titleBn: 'ঈদযাত্রার টিকিট যাত্রার ১০ দিন আগে থেকে পাওয়া যাবে।',
  },
  {
    title: 'Please reach your boarding counter 15 minutes before the reporting time with your PNR.',
    titleBn: 'অনুগ্রহ করে পিএনআর সহ রিপোর্টিং সময়ের ১৫ মিনিট আগে কাউন্টারে পৌঁছান।',
  },
  {
    title: 'New double-deck sleeper coaches now run every night on the Dhaka–Chattogram route.',
    titleBn: 'ঢাকা–চট্টগ্রাম রুটে এখন প্রতি রাতে নতুন ডাবল-ডেকার স্লিপার কোচ চলছে।',
  },
];

/** validDays: how long the offer stays valid from the day the data is seeded (kept rolling). */
export const offers = [
  {
    title: 'Winter getaway: 10% off',
    titleBn: 'শীতের ছুটিতে ১০% ছাড়',
    description: 'Save 10% (up to 150 Tk) on any trip this winter.',
    couponCode: 'WINTER10',
    discountPercent: 10,
    maxDiscount: 150,
    validDays: 90,
  },
  {
    title: 'Eid special: 15% off',
    titleBn: 'ঈদ স্পেশাল: ১৫% ছাড়',
    description: 'Go home for Eid and save 15% (up to 300 Tk) per booking.',
    couponCode: 'EID15',
    discountPercent: 15,
    maxDiscount: 300,
    validDays: 60,
  },
  {
    title: 'First trip: 50% off',
    titleBn: 'প্রথম যাত্রায় ৫০% ছাড়',
    description: 'Half price on your first online booking, up to 200 Tk.',
    couponCode: 'FIRST50',
    discountPercent: 50,
    maxDiscount: 200,
    validDays: 120,
  },
];

export const companyRow = { name: 'Nodi Express', phone: '09612-345678', email: 'support@nodiexpress.example' };
